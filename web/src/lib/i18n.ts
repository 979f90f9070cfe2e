import { createContext, useContext } from 'react';
import en from '../locales/en.json';
import type account from '../locales/en.account.json';
import type addresses from '../locales/en.addresses.json';
import type admin from '../locales/en.admin.json';
import type cards from '../locales/en.cards.json';
import type checkout from '../locales/en.checkout.json';
import type disputes from '../locales/en.disputes.json';
import type home from '../locales/en.home.json';
import type items from '../locales/en.items.json';
import type legal from '../locales/en.legal.json';
import type listing from '../locales/en.listing.json';
import type login from '../locales/en.login.json';
import type market from '../locales/en.market.json';
import type minter from '../locales/en.minter.json';
import type notifications from '../locales/en.notifications.json';
import type notifyPrefs from '../locales/en.notifyPrefs.json';
import type offering from '../locales/en.offering.json';
import type orders from '../locales/en.orders.json';
import type password from '../locales/en.password.json';
import type permission from '../locales/en.permission.json';
import type profiles from '../locales/en.profiles.json';
import type settings from '../locales/en.settings.json';
import type signup from '../locales/en.signup.json';

/*
 * The app's translator: English only, texts bundled (en.json in the shell, the texts of a single
 * page or dialog added by its module when it loads). It keeps what the app used of i18next, with
 * i18next's results: nested keys (`a.b.c`), `{{name}}` interpolation without HTML escaping,
 * plurals (`key_one`, `key_other`… by Intl.PluralRules, with `count`), `returnObjects`, and a
 * missing key shows as itself.
 */

/**
 * Every text: the shell's (en.json) and those its pages and dialogs add when they load. A page's
 * file may share a top-level key with en.json (`login`: the shell keeps `login.errors`, texts of
 * error codes that can show on any page): the types intersect as the texts merge.
 */
export type Resources = typeof en & {
  account: typeof account;
  addresses: typeof addresses;
  admin: typeof admin;
  cards: typeof cards;
  checkout: typeof checkout;
  disputes: typeof disputes;
  home: typeof home;
  items: typeof items;
  legal: typeof legal;
  listing: typeof listing;
  login: typeof login;
  market: typeof market;
  minter: typeof minter;
  notifications: typeof notifications;
  notifyPrefs: typeof notifyPrefs;
  offering: typeof offering;
  orders: typeof orders;
  password: typeof password;
  permission: typeof permission;
  profiles: typeof profiles;
  settings: typeof settings;
  signup: typeof signup;
};

type Join<Prefix extends string, Key extends string> = Prefix extends '' ? Key : `${Prefix}.${Key}`;

/** The dot paths of the texts (strings) of `T`. */
type TextPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? Join<Prefix, K>
    : T[K] extends readonly unknown[]
      ? never
      : TextPaths<T[K], Join<Prefix, K>>;
}[keyof T & string];

/** The dot paths of the objects and arrays of `T` (read with `returnObjects: true`). */
type ObjectPaths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? never
    : T[K] extends readonly unknown[]
      ? Join<Prefix, K>
      : Join<Prefix, K> | ObjectPaths<T[K], Join<Prefix, K>>;
}[keyof T & string];

/** The value at a dot path. */
type ValueAt<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? ValueAt<T[Head], Rest>
    : never
  : Path extends keyof T
    ? T[Path]
    : never;

type PluralCategory = Intl.LDMLPluralRule;

/** A text's key: `a.b.c` for `{ a: { b: { c: '…' } } }`. */
export type TextKey = TextPaths<Resources>;
/** The base of plural texts (`x` for `x_one`, `x_other`): read with `count`. */
export type PluralKey = TextKey extends infer K
  ? K extends `${infer Base}_${PluralCategory}`
    ? Base
    : never
  : never;
/** A key whose value is an object or an array: read with `returnObjects: true`. */
export type ObjectKey = ObjectPaths<Resources>;
/** Any key of the typed texts. A key built at run time (an error code) is cast to it. */
export type Key = TextKey | PluralKey | ObjectKey;

/** The values of a text's `{{name}}` placeholders. */
export type Values = Record<string, unknown>;

/** Reads a text; the key must exist in the typed texts (a wrong key fails the type check). */
export interface TFunction {
  (key: TextKey, values?: Values): string;
  (key: TextKey | PluralKey, values: Values & { count: number }): string;
  <K extends ObjectKey>(key: K, options: Values & { returnObjects: true }): ValueAt<Resources, K>;
}

export interface I18n {
  /** The language of the texts and of Intl's formats (plurals, country names). */
  readonly language: string;
  readonly t: TFunction;
  /** Whether `key` has a value (a text or an object), as i18next's `exists`. */
  exists(key: string): boolean;
  /** Merges texts in, deep: keys already present keep their value (addTranslations). */
  addTranslations(bundle: Record<string, unknown>): void;
}

type Tree = Record<string, unknown>;

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** The value at a dot path of the store (own properties only), or undefined. */
function lookup(store: Tree, path: string): unknown {
  let node: unknown = store;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !hasOwn(node, part)) return undefined;
    node = (node as Tree)[part];
  }
  return node;
}

/** A value i18next would show: not missing, not null, not empty. */
const found = (value: unknown) => value !== undefined && value !== null && value !== '';

const PLACEHOLDER = /{{(.+?)}}/g;

/**
 * `{{name}}` → its value as a string, not escaped and not read again for placeholders. A
 * placeholder without a value stays as it is, unless `values` has the name (undefined → empty).
 */
function interpolate(text: string, values: Values | undefined): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (placeholder, name: string) => {
    const key = name.trim();
    if (values === undefined || !hasOwn(values, key)) return placeholder;
    const value = values[key];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** An object or array of texts with every text interpolated (`returnObjects`). */
function interpolateTree(node: unknown, values: Values): unknown {
  if (typeof node === 'string') return interpolate(node, values);
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map((child) => interpolateTree(child, values));
  return Object.fromEntries(
    Object.entries(node).map(([key, child]) => [key, interpolateTree(child, values)]),
  );
}

/** Adds `source`'s keys that `target` lacks, deep; a text already present is kept. */
function mergeInto(target: Tree, source: Tree): void {
  for (const [key, value] of Object.entries(source)) {
    if (key === '__proto__' || key === 'constructor') continue;
    const current = target[key];
    if (!hasOwn(target, key)) target[key] = structuredClone(value);
    else if (
      typeof current === 'object' &&
      current !== null &&
      typeof value === 'object' &&
      value !== null
    ) {
      mergeInto(current as Tree, value as Tree);
    }
  }
}

/** A translator over a copy of en.json (English only, no locale prefix; resources are bundled). */
export function createI18n(): I18n {
  // A copy: texts added later (addTranslations) are merged into the store, not into en.json's
  // module object.
  const store: Tree = structuredClone(en);
  const language = 'en';
  const plurals = new Intl.PluralRules(language);

  /** The keys tried for a text, first to last (i18next's order: zero, category, key, other). */
  const candidates = (path: string, count: unknown): string[] => {
    // As i18next: a `count` that is a string is only a value, not a plural.
    if (count === undefined || typeof count === 'string') return [path];
    const category = plurals.select(count as number);
    return [...(count === 0 ? [`${path}_zero`] : []), `${path}_${category}`, path, `${path}_other`];
  };

  const translate = (key: string, options?: Values & { returnObjects?: boolean }): unknown => {
    const value = candidates(key, options?.count)
      .map((candidate) => lookup(store, candidate))
      .find(found);
    if (typeof value === 'string') return interpolate(value, options);
    if (typeof value === 'object' && value !== null && options?.returnObjects) {
      return interpolateTree(value, options);
    }
    // Missing (or an object without returnObjects): the key itself, interpolated like a text.
    return interpolate(key, options);
  };

  return {
    language,
    t: translate as TFunction,
    exists: (key) => lookup(store, key) !== undefined,
    addTranslations: (bundle) => mergeInto(store, bundle),
  };
}

/** The app's translator. */
export const i18n = createI18n();

/**
 * Adds translations under their top-level keys. The texts of pages and dialogs that load on demand
 * (the terms, the home page, sign-up, settings, the permission prompt, items, profiles, profile
 * editing, login, password and address pages: `locales/en.<key>.json`) are not in the shell's
 * bundle; the modules that show them register them when they load, before they render
 * (`locales/en.test.ts` checks that every module using such a key imports its file). Merged deep:
 * `{ login: … }` adds to the `login.errors` that en.json keeps.
 */
export function addTranslations(bundle: Record<string, unknown>): void {
  i18n.addTranslations(bundle);
}

/**
 * The translator components read: the app's, unless a provider gives another
 * (`<I18nContext value={…}>`, AppProviders' `i18n`).
 */
export const I18nContext = createContext<I18n>(i18n);

/** The translator of the tree: `const { t } = useTranslation()`, as with react-i18next. */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const instance = useContext(I18nContext);
  return { t: instance.t, i18n: instance };
}
