import { ERROR_CODES } from '@shared/errors/registry';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import home from './en.home.json';
import legal from './en.legal.json';
import permission from './en.permission.json';
import settings from './en.settings.json';
import signup from './en.signup.json';

/** The texts the shell carries, and those of a single page or dialog (lib/i18n.ts addTranslations). */
const PAGE_TEXTS = { home, legal, permission, settings, signup };
const all: Record<string, unknown> = { ...en, ...PAGE_TEXTS };

function textAt(path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[part]
          : undefined,
      all,
    );
}

function hasText(key: string): boolean {
  const value = textAt(key);
  return typeof value === 'string' && value.trim() !== '';
}

const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('en.json', () => {
  it('has an English text for every error code of the registry', () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => !hasText(code));
    expect(missing).toEqual([]);
  });

  it('has the texts of the client-side errors and the spec', () => {
    expect(textAt('network')).toBe("Can't connect with the network");
    expect(textAt('unexpected')).toBe('Unexpected Error');
    expect(textAt('login.errors.403')).toBe('Account temporally blocked.');
    expect(textAt('session.expired')).toBe('Your session has expired');
    expect(textAt('errorPage.notFound.body')).toBe('This page could not be found');
  });

  it('has a text for every literal key the source passes to t()', () => {
    const missing: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      for (const match of String(source).matchAll(/\bt\(\s*'([^'`$]+)'/g)) {
        const key = match[1] ?? '';
        const plural = hasText(`${key}_one`) && hasText(`${key}_other`);
        const object = typeof textAt(key) === 'object';
        if (!hasText(key) && !plural && !object) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("a page's texts are registered by every module that shows them, before it renders", () => {
    // Outside the shell's bundle, a key shows as itself unless its module added its file.
    const unregistered: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      const text = String(source);
      for (const key of Object.keys(PAGE_TEXTS)) {
        const uses = new RegExp(`\\bt\\(\\s*['\`]${key}\\.`).test(text);
        const registers =
          text.includes(`locales/en.${key}.json'`) && /\baddTranslations\(/.test(text);
        if (uses && !registers) unregistered.push(`${file}: ${key}`);
      }
    }
    expect(unregistered).toEqual([]);
  });

  it('keeps no page text in the shell bundle too (one place per text)', () => {
    expect(Object.keys(en).filter((key) => key in PAGE_TEXTS)).toEqual([]);
  });
});
