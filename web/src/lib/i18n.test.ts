import { describe, expect, expectTypeOf, it } from 'vitest';
import { createI18n, i18n, type Resources, type TextKey, type Values } from './i18n';

/*
 * The expected results are i18next's (27.1.2, with the options the app gave it: escapeValue
 * false, returnNull false, t from react-i18next's useTranslation), run on the same texts before
 * the translator replaced it.
 */

/** Texts under a key of their own, added to a fresh translator. */
const FIXTURE = {
  greet: 'Hello {{name}}, welcome to {{app}}',
  spaced: 'Hi {{ name }}!',
  two: 'Hi {{name}} and {{other}}',
  nested: { deep: { leaf: 'Leaf' } },
  item_one: '{{count}} item',
  item_other: '{{count}} items',
  zeroed_zero: 'none',
  zeroed_one: 'one',
  zeroed_other: '{{count}} many',
  both: 'base {{count}}',
  both_other: 'other {{count}}',
  baseOnly: '{{count}} of {{max}}',
  otherOnly_other: 'other only {{count}}',
  empty: '',
  obj: { a: 'A {{app}}', b: ['x {{app}}', 'y'], c: '' },
  list: [{ title: 'T1', body: 'B {{app}}' }],
};

/** A translator with the fixture, and its `t` for any string (the fixture is not typed). */
function withFixture() {
  const instance = createI18n();
  instance.addTranslations({ fixture: FIXTURE });
  const t = instance.t as unknown as (key: string, options?: Values) => unknown;
  return { instance, t };
}

type Case = [name: string, key: string, options: Values | undefined, expected: unknown];

const CASES: Record<string, Case[]> = {
  interpolation: [
    ['several values', 'greet', { name: 'Ann', app: 'M' }, 'Hello Ann, welcome to M'],
    ['not escaped', 'greet', { name: '<b>&', app: 'M' }, 'Hello <b>&, welcome to M'],
    [
      'a value is not read again',
      'greet',
      { name: 'A', app: '{{app}}' },
      'Hello A, welcome to {{app}}',
    ],
    [
      'no nesting in values',
      'greet',
      { name: '$t(fixture.nested.deep.leaf)', app: 1 },
      'Hello $t(fixture.nested.deep.leaf), welcome to 1',
    ],
    ['spaces inside the braces', 'spaced', { name: 'Bo' }, 'Hi Bo!'],
    ['a value not given stays as it is', 'two', { name: 'Ann' }, 'Hi Ann and {{other}}'],
    [
      'a value given as undefined is empty',
      'two',
      { name: 'Ann', other: undefined },
      'Hi Ann and ',
    ],
    ['null is empty, 0 is 0', 'two', { name: null, other: 0 }, 'Hi  and 0'],
    [
      'arrays and objects as String()',
      'two',
      { name: [1, 2], other: { a: 1 } },
      'Hi 1,2 and [object Object]',
    ],
    ['booleans and decimals', 'two', { name: true, other: 1.5 }, 'Hi true and 1.5'],
    ['no values: placeholders stay', 'two', undefined, 'Hi {{name}} and {{other}}'],
  ],
  plurals: [
    ['0: other', 'item', { count: 0 }, '0 items'],
    ['1: one', 'item', { count: 1 }, '1 item'],
    ['2: other', 'item', { count: 2 }, '2 items'],
    ['1.5: other', 'item', { count: 1.5 }, '1.5 items'],
    ['-1: one', 'item', { count: -1 }, '-1 item'],
    ['a string count is no plural', 'item', { count: '1' }, 'fixture.item'],
    ['no count: the base is missing', 'item', undefined, 'fixture.item'],
    ['_zero first for 0', 'zeroed', { count: 0 }, 'none'],
    ['_zero not for 1', 'zeroed', { count: 1 }, 'one'],
    ['_zero not for 5', 'zeroed', { count: 5 }, '5 many'],
    ['the base before _other (1)', 'both', { count: 1 }, 'base 1'],
    ['the category before the base (2)', 'both', { count: 2 }, 'other 2'],
    ['the category before the base (0)', 'both', { count: 0 }, 'other 0'],
    ['a text without plural forms, with count', 'baseOnly', { count: 3, max: 9 }, '3 of 9'],
    ['_other when the category has no text', 'otherOnly', { count: 1 }, 'other only 1'],
    ['a plural form read directly', 'item_one', { count: 5 }, '5 item'],
    ['a plural form without count', 'item_other', undefined, '{{count}} items'],
  ],
  'nested keys and missing keys': [
    ['a nested text', 'nested.deep.leaf', undefined, 'Leaf'],
    ['an object without returnObjects: the key', 'nested.deep', undefined, 'fixture.nested.deep'],
    [
      'deeper than a text: the key',
      'nested.deep.leaf.more',
      undefined,
      'fixture.nested.deep.leaf.more',
    ],
    ['missing: the key', 'nope', undefined, 'fixture.nope'],
    ['missing: the key, interpolated', 'nope {{x}}', { x: 1 }, 'fixture.nope 1'],
    ['an empty text: the key', 'empty', undefined, 'fixture.empty'],
    ['an empty text with count: the key', 'empty', { count: 1 }, 'fixture.empty'],
  ],
  returnObjects: [
    [
      'an object, texts interpolated',
      'obj',
      { returnObjects: true, app: 'M' },
      { a: 'A M', b: ['x M', 'y'], c: '' },
    ],
    [
      'an object, no values',
      'obj',
      { returnObjects: true },
      { a: 'A {{app}}', b: ['x {{app}}', 'y'], c: '' },
    ],
    [
      'an array of objects',
      'list',
      { returnObjects: true, app: 'M' },
      [{ title: 'T1', body: 'B M' }],
    ],
    ['an array', 'obj.b', { returnObjects: true, app: 'Z' }, ['x Z', 'y']],
    ['a text', 'greet', { returnObjects: true, name: 'x' }, 'Hello x, welcome to {{app}}'],
    ['missing: the key', 'nope', { returnObjects: true }, 'fixture.nope'],
  ],
};

describe('the translator', () => {
  const { t } = withFixture();
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      it.each(cases)('%s', (_name, key, options, expected) => {
        expect(t(`fixture.${key}`, options)).toEqual(expected);
      });
    });
  }

  // A key is a dot path, nothing else: i18next also read `ns:key` as a key of a namespace, and
  // so showed a missing `login.errors.wait:30` as `30` and a message `x.y:z w` as `z w`; here a
  // string that is no key is shown whole.
  it.each([
    ['login.errors.wait:30', 'login.errors.wait:30'],
    ['translation:fixture.nested.deep.leaf', 'translation:fixture.nested.deep.leaf'],
    ['x.y:z w', 'x.y:z w'],
    ['Invalid input: expected string', 'Invalid input: expected string'],
    ['', ''],
  ])('shows %j, which is no key, as %j', (key, expected) => {
    expect(t(key)).toBe(expected);
  });

  it.each([
    ['fixture.greet', true],
    ['fixture.nested', true],
    ['fixture.nested.deep.leaf', true],
    ['fixture.nope', false],
    ['fixture.empty', true],
    ['fixture.item', false],
    ['fixture.item_one', true],
    ['fixture.obj.b.0', true],
    ['fixture.list.0.title', true],
    ['fixture.greet.x', false],
    ['translation:fixture.greet', false],
    ['foo:fixture.greet', false],
    ['', false],
    ['unexpected', true],
    ['login.errors.wait:30', false],
  ])('exists(%j) is %s', (key, expected) => {
    expect(withFixture().instance.exists(key)).toBe(expected);
  });
});

describe('addTranslations', () => {
  it('merges deep: a later bundle adds keys and keeps every text already there', () => {
    const { instance, t } = withFixture();
    const bundle = {
      fixture: {
        nested: { deep: { leaf: 'NEW', other: 'O' }, two: 'T' },
        greet: { a: 'x' },
        obj: 'a text',
        extra: 'E',
      },
    };
    instance.addTranslations(bundle);
    expect(t('fixture.nested.deep.leaf')).toBe('Leaf');
    expect(t('fixture.nested.deep.other')).toBe('O');
    expect(t('fixture.nested.two')).toBe('T');
    expect(t('fixture.extra')).toBe('E');
    expect(t('fixture.greet', { name: 'A', app: 'B' })).toBe('Hello A, welcome to B');
    expect(t('fixture.obj.a', { app: 'M' })).toBe('A M');
    expect(t('common.close')).toBe('Close');
    // The store keeps a copy.
    bundle.fixture.extra = 'changed';
    expect(t('fixture.extra')).toBe('E');
  });

  it('adds to its own translator only, and never to en.json', () => {
    const { t } = withFixture();
    expect(t('fixture.greet', {})).toBe('Hello {{name}}, welcome to {{app}}');
    expect(i18n.exists('fixture.greet')).toBe(false);
    expect(createI18n().exists('fixture.greet')).toBe(false);
  });
});

describe('the app translator', () => {
  it('reads en.json in English', () => {
    expect(i18n.language).toBe('en');
    expect(i18n.t('common.close')).toBe('Close');
    expect(i18n.t('footer.copyright', { year: 2026, app: i18n.t('app.name') })).toBe(
      '© 2026 MintMarket. All rights reserved.',
    );
    expect(i18n.t('login.pin.triesLeft', { count: 1 })).toBe('1 try left.');
    expect(i18n.t('login.pin.triesLeft', { count: 3 })).toBe('3 tries left.');
  });

  it('types its keys: a wrong key, a plural without count or a bare string fail tsc', () => {
    const { t } = i18n;
    expectTypeOf(t('common.close')).toEqualTypeOf<string>();
    expectTypeOf(t('sellers.followers', { count: 2, formatted: '2' })).toEqualTypeOf<string>();
    expectTypeOf(t('legal.terms.sections', { returnObjects: true })).toEqualTypeOf<
      Resources['legal']['terms']['sections']
    >();
    expectTypeOf(t('login.errors', { returnObjects: true })).toEqualTypeOf<
      Resources['login']['errors']
    >();
    // @ts-expect-error: not a key
    t('common.closed');
    // @ts-expect-error: a plural's base needs `count`
    t('sellers.followers');
    // @ts-expect-error: an object is read with returnObjects
    t('legal.terms.sections');
    const code: string = 'unexpected';
    // @ts-expect-error: a string built at run time is cast to a key
    t(code);
    expect(t(code as TextKey)).toBe('Unexpected Error');
  });
});

describe('the texts', () => {
  const bundles = import.meta.glob<Record<string, unknown>>('../locales/en*.json', {
    import: 'default',
    eager: true,
  });

  function texts(node: unknown): string[] {
    if (typeof node === 'string') return [node];
    if (typeof node !== 'object' || node === null) return [];
    return Object.values(node).flatMap(texts);
  }

  it('use only what the translator reads as i18next did', () => {
    // No `$t()` nesting, no `{{value, format}}` or `{{- value}}`, and none of the names that
    // react-i18next's t filled in itself (ns, lng, lngs, keyPrefix).
    const unsupported = Object.entries(bundles).flatMap(([file, bundle]) =>
      texts(bundle)
        .filter(
          (text) =>
            text.includes('$t(') ||
            [...text.matchAll(/{{(.+?)}}/g)].some(
              ([, name = '']) =>
                !/^\s*\w+\s*$/.test(name) ||
                ['ns', 'lng', 'lngs', 'keyPrefix'].includes(name.trim()),
            ),
        )
        .map((text) => `${file}: ${text}`),
    );
    expect(Object.keys(bundles).length).toBeGreaterThan(1);
    expect(unsupported).toEqual([]);
  });
});
