import { ERROR_CODES } from '@shared/errors/registry';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import account from './en.account.json';
import addresses from './en.addresses.json';
import admin from './en.admin.json';
import cards from './en.cards.json';
import checkout from './en.checkout.json';
import disputes from './en.disputes.json';
import home from './en.home.json';
import items from './en.items.json';
import legal from './en.legal.json';
import listing from './en.listing.json';
import login from './en.login.json';
import market from './en.market.json';
import minter from './en.minter.json';
import notifications from './en.notifications.json';
import notifyPrefs from './en.notifyPrefs.json';
import offering from './en.offering.json';
import orders from './en.orders.json';
import password from './en.password.json';
import permission from './en.permission.json';
import profiles from './en.profiles.json';
import settings from './en.settings.json';
import signup from './en.signup.json';

/** The texts the shell carries, and those of pages and dialogs (lib/i18n.ts addTranslations). */
const PAGE_TEXTS: Record<string, Record<string, unknown>> = {
  account,
  addresses,
  admin,
  cards,
  checkout,
  disputes,
  home,
  items,
  legal,
  listing,
  login,
  market,
  minter,
  notifications,
  notifyPrefs,
  offering,
  orders,
  password,
  permission,
  profiles,
  settings,
  signup,
};
/**
 * The keys whose texts are split: en.json keeps their error texts (API error codes and
 * `*.errors.*`, which can show on any page) and the account menu; a page's file has the rest.
 */
const SPLIT = [
  'account',
  'addresses',
  'admin',
  'checkout',
  'login',
  'market',
  'notifications',
  'orders',
  'password',
];

type Tree = Record<string, unknown>;

/** `source` merged into a copy of `target`, deep (as addTranslations merges). */
function merged(target: Tree, source: Tree): Tree {
  const out: Tree = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const current = out[key];
    out[key] =
      typeof current === 'object' && current !== null && typeof value === 'object' && value !== null
        ? merged(current as Tree, value as Tree)
        : value;
  }
  return out;
}

/** The dot paths of the texts (strings) of a tree. */
function textPaths(node: unknown, prefix = ''): string[] {
  if (typeof node === 'string') return [prefix];
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, child]) =>
    textPaths(child, prefix ? `${prefix}.${key}` : key),
  );
}

const all: Tree = merged(en, PAGE_TEXTS);

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
      for (const [key, texts] of Object.entries(PAGE_TEXTS)) {
        // A split key is the page's when it names one of the file's own keys (or is built at run
        // time); `login.errors.…` is the shell's.
        const own = SPLIT.includes(key) ? `(?:(?:${Object.keys(texts).join('|')})\\b|\\$\\{)` : '';
        const uses = new RegExp(`\\bt\\(\\s*['\`]${key}\\.${own}`).test(text);
        const registers =
          text.includes(`locales/en.${key}.json'`) && /\baddTranslations\(/.test(text);
        if (uses && !registers) unregistered.push(`${file}: ${key}`);
      }
    }
    expect(unregistered).toEqual([]);
  });

  it('keeps no page text in the shell bundle too (one place per text)', () => {
    expect(Object.keys(en).filter((key) => key in PAGE_TEXTS && !SPLIT.includes(key))).toEqual([]);
    const shell = new Set(textPaths(en));
    expect(textPaths(PAGE_TEXTS).filter((path) => shell.has(path))).toEqual([]);
  });

  it('keeps the texts of every error code and of every *.errors.* key in the shell bundle', () => {
    // They can show on any page, before the page that owns the rest of the key has loaded.
    const shell = new Set(textPaths(en));
    expect(Object.keys(ERROR_CODES).filter((code) => !shell.has(code))).toEqual([]);
    expect(textPaths(PAGE_TEXTS).filter((path) => path.split('.').includes('errors'))).toEqual([]);
  });
});
