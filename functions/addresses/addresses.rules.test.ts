import { describe, expect, it } from 'vitest';
import type { DomainError } from '../core/errors';
import {
  addressBodySchema,
  addressInputSchema,
  type Address,
  type AddressInput,
} from '../../shared/schemas/addresses';
import { fieldErrors } from '../core/http';
import {
  planAdd,
  planDelete,
  planUpdate,
  resolveDefault,
  sortForList,
  type BookState,
} from './addresses.rules';

const NOW = new Date('2026-03-01T10:00:00Z');

const VALID = {
  country: 'es',
  fullname: 'Ana García',
  line1: 'Calle Mayor 1',
  postalcode: '28013',
  city: 'Madrid',
  stateprovince: 'Madrid',
};

function input(overrides: Partial<AddressInput> = {}): AddressInput {
  return { ...addressInputSchema.parse(VALID), ...overrides };
}

function address(id: string, minute: number, isDefault = false): Address {
  const at = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
  return {
    id,
    ...input(),
    default: isDefault,
    created_at: at,
    updated_at: at,
  } as Address;
}

function book(...addresses: Address[]): BookState {
  return { version: addresses.length, addresses };
}

describe('address validation (spec 001 §5: country, full name, line, postal code, city, state)', () => {
  it('accepts a complete address, normalising the country and blanks', () => {
    const parsed = addressInputSchema.parse({
      ...VALID,
      line2: '  ',
      instructions: ' Ring twice ',
    });
    expect(parsed).toMatchObject({ country: 'ES', line2: null, instructions: 'Ring twice' });
    expect(parsed.default).toBeUndefined();
  });

  it.each([
    ['country', undefined, 'forms.validation.required'],
    ['country', '', 'forms.validation.required'],
    ['country', 'XX', 'forms.validation.country'],
    ['country', 'ESP', 'forms.validation.country'],
    ['fullname', undefined, 'forms.validation.required'],
    ['fullname', '   ', 'forms.validation.required'],
    ['fullname', 'x'.repeat(101), 'forms.validation.too_big'],
    ['line1', undefined, 'forms.validation.required'],
    ['line2', 'x'.repeat(201), 'forms.validation.too_big'],
    ['line2', 42, 'forms.validation.invalid'],
    ['postalcode', '', 'forms.validation.required'],
    ['postalcode', 'x'.repeat(21), 'forms.validation.too_big'],
    ['city', undefined, 'forms.validation.required'],
    ['stateprovince', undefined, 'forms.validation.required'],
    ['instructions', 'x'.repeat(501), 'forms.validation.too_big'],
    ['default', 'yes', 'forms.validation.invalid'],
  ])('%s = %j → %s', (field, value, code) => {
    const result = addressBodySchema.safeParse({ address: { ...VALID, [field]: value } });
    expect(result.success).toBe(false);
    if (!result.success) expect(fieldErrors(result.error)[`address.${field}`]).toBe(code);
  });

  it('requires the address object', () => {
    const result = addressBodySchema.safeParse({});
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrors(result.error)).toEqual({ address: 'forms.validation.required' });
  });
});

describe('resolveDefault', () => {
  it.each([
    ['none left', [], undefined, null],
    ['preferred wins', [address('a', 1, true), address('b', 2)], 'b', 'b'],
    ['unknown preferred ignored', [address('a', 1, true)], 'zz', 'a'],
    ['current kept', [address('a', 1), address('b', 2, true), address('c', 3)], undefined, 'b'],
    ['most recent when none', [address('a', 1), address('c', 3), address('b', 2)], undefined, 'c'],
  ] as const)('%s', (_name, addresses, preferred, expected) => {
    expect(resolveDefault([...addresses], preferred)).toBe(expected);
  });
});

describe('plans', () => {
  it('makes the first address the default', () => {
    const plan = planAdd(book(), input(), 'a', NOW);
    expect(plan.result).toMatchObject({ id: 'a', default: true, country: 'ES' });
    expect(plan).toMatchObject({ defaultId: 'a', count: 1, created: ['a'], delete: [] });
  });

  it('adds later addresses without default unless asked', () => {
    const plan = planAdd(book(address('a', 1, true)), input(), 'b', NOW);
    expect(plan.put.map((item) => [item.id, item.default])).toEqual([['b', false]]);
    expect(plan.defaultId).toBe('a');
  });

  it('moves the default on add with default true, clearing the previous one', () => {
    const plan = planAdd(book(address('a', 1, true)), input({ default: true }), 'b', NOW);
    expect(plan.put.map((item) => [item.id, item.default]).sort()).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('refuses the 21st address', () => {
    const full = book(
      ...Array.from({ length: 20 }, (_, index) => address(`a${index}`, index, index === 0)),
    );
    expect(() => planAdd(full, input(), 'x', NOW)).toThrow(
      expect.objectContaining({
        code: 'addresses.errors.limit',
        status: 400,
      }) as unknown as DomainError,
    );
    expect(planAdd(book(...full.addresses.slice(1)), input(), 'x', NOW).count).toBe(20);
  });

  it('updates fields and moves the default only when asked', () => {
    const state = book(address('a', 1, true), address('b', 2));
    const moved = planUpdate(state, 'b', input({ city: 'Sevilla', default: true }), NOW);
    expect(moved.result).toMatchObject({ id: 'b', city: 'Sevilla', default: true });
    expect(moved.put.find((item) => item.id === 'a')?.default).toBe(false);
    const kept = planUpdate(state, 'a', input({ default: false }), NOW);
    expect(kept.result?.default).toBe(true);
    expect(kept.put.map((item) => item.id)).toEqual(['a']);
  });

  it.each([
    ['deleting a non-default keeps the default', 'b', 'a', []],
    ['deleting the default promotes the most recent', 'a', 'c', ['c']],
  ] as const)('%s', (_name, victim, newDefault, promoted) => {
    const state = book(address('a', 1, true), address('b', 2), address('c', 3));
    const plan = planDelete(state, victim);
    expect(plan).toMatchObject({ delete: [victim], defaultId: newDefault, count: 2 });
    expect(plan.put.map((item) => item.id)).toEqual(promoted);
  });

  it('deleting the last address leaves no default', () => {
    expect(planDelete(book(address('a', 1, true)), 'a')).toMatchObject({
      defaultId: null,
      count: 0,
    });
  });

  it.each([
    ['update', (state: BookState) => planUpdate(state, 'nope', input(), NOW)],
    ['delete', (state: BookState) => planDelete(state, 'nope')],
  ])('%s of an unknown address is 404', (_name, run) => {
    expect(() => run(book(address('a', 1, true)))).toThrow(
      expect.objectContaining({
        code: 'addresses.errors.not_found',
        status: 404,
      }) as unknown as DomainError,
    );
  });

  it('lists the default first, then newest first', () => {
    const sorted = sortForList([address('a', 1), address('b', 2, true), address('c', 3)]);
    expect(sorted.map((item) => item.id)).toEqual(['b', 'c', 'a']);
  });
});
