import { describe, expect, it } from 'vitest';
import {
  createItemBodySchema,
  createItemContractSchema,
  createItemViolations,
  type CreateItemContract,
} from './items';

const physical = {
  product_type: 'physical',
  title: 'Stoneware mug',
  description: 'Hand-thrown, 350 ml.',
  copies: 20,
  symbol: 'mug-2026',
  images: ['img1', 'img2'],
  shipping: { mode: 'delivery', countries: ['es', 'FR', 'ES'] },
  legal_terms: 'none',
  transferable: true,
  contact_email: 'Studio@Example.com',
  issuer: {
    legal_form: 'Sole trader',
    organisation: 'Ana Ceramics',
    country: 'es',
    email: 'legal@example.com',
    governing_law: 'Spanish law',
    jurisdiction: 'Madrid courts',
  },
};

const ONLY_PHYSICAL = { mintableTypes: ['physical'] as const };
const ALL_TYPES = { mintableTypes: ['physical', 'digital', 'ticket', 'service'] as const };

function parse(input: unknown) {
  return createItemContractSchema.parse(input);
}

describe('create-item contract: field rules', () => {
  it('accepts a physical item and normalises it', () => {
    const body = createItemBodySchema(ONLY_PHYSICAL).parse({ contract: physical });
    expect(body.contract).toMatchObject({
      legal_terms: 'None',
      contact_email: 'studio@example.com',
      shipping: { mode: 'delivery', countries: ['ES', 'FR'] },
      file: null,
      royalty: null,
      beneficiary: null,
      ticket: null,
      collection_id: null,
      issuer: { country: 'ES' },
    });
  });

  const fieldCases: [string, Record<string, unknown>, string, string][] = [
    ['title missing', { title: '  ' }, 'title', 'forms.validation.required'],
    ['title of 51', { title: 'x'.repeat(51) }, 'title', 'forms.validation.too_big'],
    [
      'description of 301',
      { description: 'x'.repeat(301) },
      'description',
      'forms.validation.too_big',
    ],
    ['0 copies', { copies: 0 }, 'copies', 'forms.validation.too_small'],
    ['201 copies', { copies: 201 }, 'copies', 'forms.validation.too_big'],
    ['2.5 copies', { copies: 2.5 }, 'copies', 'forms.validation.invalid'],
    [
      'a symbol with capitals',
      { symbol: 'Mug' },
      'symbol',
      'market.create_product.validation.symbol',
    ],
    ['a symbol of 21', { symbol: 'a'.repeat(21) }, 'symbol', 'forms.validation.too_big'],
    ['no main image', { images: [] }, 'images', 'market.create_product.validation.image.main'],
    [
      '11 images',
      { images: Array.from({ length: 11 }, (_, i) => `i${i}`) },
      'images',
      'market.create_product.validation.image.limit',
    ],
    ['a repeated image', { images: ['a', 'a'] }, 'images', 'forms.validation.invalid'],
    ['no terms', { legal_terms: '' }, 'legal_terms', 'forms.validation.required'],
    [
      'a royalty of 9',
      { royalty: 9 },
      'royalty',
      'market.create_product.validation.commission.min',
    ],
    [
      'a royalty of 51',
      { royalty: 51 },
      'royalty',
      'market.create_product.validation.commission.max',
    ],
    ['a bad contact e-mail', { contact_email: 'nope' }, 'contact_email', 'forms.validation.email'],
    ['an investment item', { product_type: 'investment' }, 'product_type', 'forms.validation.enum'],
    [
      'no issuer organisation',
      { issuer: { ...physical.issuer, organisation: '' } },
      'issuer.organisation',
      'forms.validation.required',
    ],
    [
      'a bad issuer e-mail',
      { issuer: { ...physical.issuer, email: 'x@' } },
      'issuer.email',
      'forms.validation.email',
    ],
    [
      'an unknown issuer country',
      { issuer: { ...physical.issuer, country: 'XX' } },
      'issuer.country',
      'forms.validation.country',
    ],
    [
      'delivery to no country',
      { shipping: { mode: 'delivery', countries: [] } },
      'shipping.countries',
      'market.create_product.validation.countries',
    ],
    [
      'a pickup without instructions',
      {
        shipping: {
          mode: 'pickup',
          address: { country: 'ES', line1: 'Calle 1', city: 'Madrid', postalcode: '28001' },
          instructions: '',
        },
      },
      'shipping.instructions',
      'forms.validation.required',
    ],
  ];
  it.each(fieldCases)('refuses %s', (_case, change, field, code) => {
    const result = createItemContractSchema.safeParse({ ...physical, ...change });
    expect(result.success).toBe(false);
    const issue = result.error?.issues.find((candidate) => candidate.path.join('.') === field);
    expect(issue?.message, JSON.stringify(result.error?.issues)).toBe(code);
  });
});

describe('create-item contract: cross-field rules', () => {
  const base = parse(physical);
  const digital: CreateItemContract = {
    ...base,
    product_type: 'digital',
    shipping: null,
    file: { upload: 'file1' },
  };
  const ticket: CreateItemContract = {
    ...base,
    product_type: 'ticket',
    shipping: null,
    ticket: { redeemer: 'doorkeeper', expires_at: '2027-01-01T20:00:00Z' },
  };
  const cases: [string, CreateItemContract, typeof ALL_TYPES | typeof ONLY_PHYSICAL, string[]][] = [
    ['a valid physical item', base, ONLY_PHYSICAL, []],
    [
      'a digital item where only physical is mintable',
      digital,
      ONLY_PHYSICAL,
      ['product_type:market.create_product.errors.forbidden'],
    ],
    ['a valid digital item', digital, ALL_TYPES, []],
    [
      'a digital item without its file',
      { ...digital, file: null },
      ALL_TYPES,
      ['file:market.create_product.validation.file_required'],
    ],
    [
      'a physical item without shipping',
      { ...base, shipping: null },
      ONLY_PHYSICAL,
      ['shipping:market.create_product.validation.shipping'],
    ],
    [
      'shipping on a digital item',
      { ...digital, shipping: base.shipping },
      ALL_TYPES,
      ['shipping:market.create_product.validation.no_shipping'],
    ],
    ['a valid ticket', ticket, ALL_TYPES, []],
    [
      'a ticket without ticket options',
      { ...ticket, ticket: null },
      ALL_TYPES,
      ['ticket:market.create_product.validation.ticket_required'],
    ],
    [
      'ticket options on a service',
      { ...ticket, product_type: 'service' },
      ALL_TYPES,
      ['ticket:market.create_product.validation.no_ticket'],
    ],
    [
      'a royalty on a physical item',
      { ...base, royalty: 10 },
      ONLY_PHYSICAL,
      ['royalty:market.create_product.validation.royalty_physical'],
    ],
    [
      'a royalty on a non-transferable item',
      { ...digital, royalty: 10, transferable: false },
      ALL_TYPES,
      ['royalty:market.create_product.validation.royalty_not_transferable'],
    ],
    [
      'a royalty and a beneficiary within bounds',
      { ...digital, royalty: 50, beneficiary: { nick: 'bob', share: 50 } },
      ALL_TYPES,
      [],
    ],
    [
      'a beneficiary on a physical item',
      { ...base, beneficiary: { nick: 'bob', share: 10 } },
      ONLY_PHYSICAL,
      [],
    ],
  ];
  it.each(cases)('%s', (_case, contract, context, expected) => {
    expect(
      createItemViolations(contract, context).map(
        (violation) => `${violation.field}:${violation.code}`,
      ),
    ).toEqual(expected);
  });

  it('reports the cross-field rules as issues on their fields through the body schema', () => {
    const result = createItemBodySchema(ONLY_PHYSICAL).safeParse({
      contract: { ...physical, royalty: 20, shipping: null },
    });
    expect(result.success).toBe(false);
    expect(
      result.error?.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`).sort(),
    ).toEqual([
      'contract.royalty:market.create_product.validation.royalty_physical',
      'contract.shipping:market.create_product.validation.shipping',
    ]);
  });
});

describe('create-item codes', () => {
  it('are registered error codes (i18n keys with English texts)', async () => {
    const { isErrorCode } = await import('../errors/registry');
    const source = (await import('node:fs')).readFileSync(
      new URL('./items.ts', import.meta.url),
      'utf8',
    );
    const codes = [...source.matchAll(/'((?:market|forms)\.[a-z_.]+)'/g)].map(
      (match) => match[1] ?? '',
    );
    expect(codes.length).toBeGreaterThan(10);
    expect(codes.filter((code) => !isErrorCode(code))).toEqual([]);
  });
});
