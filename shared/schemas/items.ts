import * as z from 'zod';
import { COMMISSION_LIMITS, ITEM_LIMITS } from '../constants/limits';
import { PRODUCT_TYPES, type ProductType } from '../switches';
import { emailSchema } from './accounts';
import { COUNTRY_CODES, countrySchema } from './addresses';
import { nickSchema } from './profiles';

/**
 * The create-item contract (spec 000 §3 "Item", §5 "Create item", issue 4) shared by the mint form
 * and `POST /api/users/{id}/token/create`. Field rules live in the zod schema; rules that tie fields
 * together (type ↔ shipping, file, ticket; royalty bounds; the mintable-type switch) live in
 * `createItemViolations`, a pure function the schema runs and the form runs for instant feedback.
 * Messages are error codes (i18n keys).
 */

/** What the spec calls "None" for legal terms: the only accepted way to give no terms. */
export const NO_TERMS = 'None';

/** Object names (symbol): lowercase letters, digits and hyphen, at most 20 (spec 000 §5). */
export const SYMBOL_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function requiredText(max: number) {
  return z
    .string({ error: 'forms.validation.required' })
    .trim()
    .min(1, { error: 'forms.validation.required' })
    .max(max, { error: 'forms.validation.too_big' });
}

/** Issuer texts (legal form, organisation, governing law, jurisdiction): bounds are ours. */
const ISSUER_TEXT_MAX = 120;
const SHIPPING_INSTRUCTIONS_MAX = 500;
const PICKUP_LINE_MAX = 200;

export const productTypeSchema = z.enum(PRODUCT_TYPES, { error: 'forms.validation.enum' });

export const symbolSchema = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .min(1, { error: 'forms.validation.required' })
  .max(ITEM_LIMITS.objectNameMax, { error: 'forms.validation.too_big' })
  .regex(SYMBOL_PATTERN, { error: 'market.create_product.validation.symbol' });

/** An image uploaded for this creation (presigned POST + confirm): its upload id. */
export const uploadIdSchema = z
  .string({ error: 'forms.validation.required' })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'forms.validation.invalid' });

export const shippingSchema = z.discriminatedUnion(
  'mode',
  [
    z.object({
      mode: z.literal('delivery'),
      countries: z
        .array(countrySchema, { error: 'forms.validation.required' })
        .min(1, { error: 'market.create_product.validation.countries' })
        .max(COUNTRY_CODES.size, { error: 'forms.validation.too_big' })
        .transform((codes) => [...new Set(codes)].sort()),
    }),
    z.object({
      mode: z.literal('pickup'),
      address: z.object({
        country: countrySchema,
        line1: requiredText(PICKUP_LINE_MAX),
        city: requiredText(100),
        postalcode: requiredText(20),
      }),
      instructions: requiredText(SHIPPING_INSTRUCTIONS_MAX),
    }),
  ],
  { error: 'forms.validation.required' },
);
export type Shipping = z.infer<typeof shippingSchema>;

/** A commission on the percent scale (spec 000 §9: min 10, max 50, total 100). */
export const percentSchema = z
  .number({ error: 'forms.validation.required' })
  .int({ error: 'forms.validation.invalid' })
  .min(COMMISSION_LIMITS.min, { error: 'market.create_product.validation.commission.min' })
  .max(COMMISSION_LIMITS.max, { error: 'market.create_product.validation.commission.max' });

export const beneficiarySchema = z.object({ nick: nickSchema, share: percentSchema });

export const ticketOptionsSchema = z.object({
  /** The user who scans the QR codes at the door. */
  redeemer: nickSchema,
  /** ISO-8601; the ticket cannot be redeemed after it. */
  expires_at: z.iso.datetime({ offset: true, error: 'forms.validation.invalid' }),
});

export const issuerSchema = z.object({
  legal_form: requiredText(ISSUER_TEXT_MAX),
  organisation: requiredText(ISSUER_TEXT_MAX),
  country: countrySchema,
  email: emailSchema,
  governing_law: requiredText(ISSUER_TEXT_MAX),
  jurisdiction: requiredText(ISSUER_TEXT_MAX),
});

/** The attached file: at most one (spec 000 §5), already uploaded to the private bucket. */
export const attachedFileSchema = z.object({ upload: uploadIdSchema });

export const createItemContractSchema = z.object({
  product_type: productTypeSchema,
  title: requiredText(ITEM_LIMITS.titleMax),
  description: requiredText(ITEM_LIMITS.descriptionMax),
  copies: z
    .number({ error: 'forms.validation.required' })
    .int({ error: 'forms.validation.invalid' })
    .min(1, { error: 'forms.validation.too_small' })
    .max(ITEM_LIMITS.maxCopies, { error: 'forms.validation.too_big' }),
  symbol: symbolSchema,
  /** Upload ids of the item's images, the main one first. */
  images: z
    .array(uploadIdSchema, { error: 'market.create_product.validation.image.main' })
    .min(1, { error: 'market.create_product.validation.image.main' })
    .max(ITEM_LIMITS.maxImages, { error: 'market.create_product.validation.image.limit' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'forms.validation.invalid' }),
  file: attachedFileSchema.nullish().transform((value) => value ?? null),
  collection_id: uploadIdSchema.nullish().transform((value) => value ?? null),
  shipping: shippingSchema.nullish().transform((value) => value ?? null),
  legal_terms: requiredText(5000),
  transferable: z.boolean({ error: 'forms.validation.required' }),
  /** Resale royalty for the creator, percent; null for none. */
  royalty: percentSchema.nullish().transform((value) => value ?? null),
  beneficiary: beneficiarySchema.nullish().transform((value) => value ?? null),
  ticket: ticketOptionsSchema.nullish().transform((value) => value ?? null),
  contact_email: emailSchema,
  issuer: issuerSchema,
});
export type CreateItemContract = z.infer<typeof createItemContractSchema>;

export interface CreateItemRuleContext {
  /** The deployment's mintable types (switch `mintableTypes`). */
  mintableTypes: readonly ProductType[];
}

/** A cross-field rule broken: the field path (dot-separated) and its code. */
export interface Violation {
  field: string;
  code: string;
}

/**
 * The create-item rules that tie fields together (spec 000 §5 and issue 4), in the order a user
 * would fix them. Pure: the form and the use case run the same function.
 */
export function createItemViolations(
  contract: CreateItemContract,
  context: CreateItemRuleContext,
): Violation[] {
  const violations: Violation[] = [];
  const type = contract.product_type;
  if (!context.mintableTypes.includes(type)) {
    violations.push({ field: 'product_type', code: 'market.create_product.errors.forbidden' });
  }
  if (type === 'physical' && contract.shipping === null) {
    violations.push({ field: 'shipping', code: 'market.create_product.validation.shipping' });
  }
  if (type !== 'physical' && contract.shipping !== null) {
    violations.push({ field: 'shipping', code: 'market.create_product.validation.no_shipping' });
  }
  if (type === 'digital' && contract.file === null) {
    violations.push({ field: 'file', code: 'market.create_product.validation.file_required' });
  }
  if (type === 'ticket' && contract.ticket === null) {
    violations.push({ field: 'ticket', code: 'market.create_product.validation.ticket_required' });
  }
  if (type !== 'ticket' && contract.ticket !== null) {
    violations.push({ field: 'ticket', code: 'market.create_product.validation.no_ticket' });
  }
  if (contract.royalty !== null && type === 'physical') {
    violations.push({
      field: 'royalty',
      code: 'market.create_product.validation.royalty_physical',
    });
  } else if (contract.royalty !== null && !contract.transferable) {
    violations.push({
      field: 'royalty',
      code: 'market.create_product.validation.royalty_not_transferable',
    });
  }
  // The commission total (100) holds by construction: royalty and share are each at most 50.
  return violations;
}

/** True when the terms are text, or exactly the word "None" (any case is accepted as None). */
export function normaliseTerms(terms: string): string {
  return terms.trim().toLowerCase() === NO_TERMS.toLowerCase() ? NO_TERMS : terms.trim();
}

/**
 * The body schema of `token/create` for a deployment: the contract (spec `{contract}`), with the
 * cross-field rules as issues on their fields. The spec's `nftlist` is not taken from the client:
 * the server numbers the copies.
 */
export function createItemBodySchema(context: CreateItemRuleContext) {
  return z.object({
    contract: createItemContractSchema
      .transform((contract) => ({ ...contract, legal_terms: normaliseTerms(contract.legal_terms) }))
      .superRefine((contract, issues) => {
        for (const violation of createItemViolations(contract, context)) {
          issues.addIssue({
            code: 'custom',
            message: violation.code,
            path: violation.field.split('.'),
          });
        }
      }),
  });
}
export type CreateItemBody = z.infer<ReturnType<typeof createItemBodySchema>>;
