import { ERROR_CODES } from '@shared/errors/registry';
import { describe, expect, it } from 'vitest';
import en from './en.json';

function textAt(path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, part) =>
        typeof node === 'object' && node !== null
          ? (node as Record<string, unknown>)[part]
          : undefined,
      en,
    );
}

function hasText(key: string): boolean {
  const value = textAt(key);
  return typeof value === 'string' && value.trim() !== '';
}

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
    const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
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
});
