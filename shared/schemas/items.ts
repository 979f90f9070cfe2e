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

// ---------------------------------------------------------------------------------------------
// Calls and answers of the minting area (issue 4). Paths in functions/routes.ts; deviations from
// the spec's catalogue in docs/api.md.

export const CREATION_STATUS_VALUES = ['checking', 'uploading-token', 'done', 'error'] as const;
export type CreationStatusValue = (typeof CREATION_STATUS_VALUES)[number];

/** Image types accepted for items and collections (checked again by magic bytes on confirm). */
export const ITEM_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/bmp',
  'image/gif',
] as const;

/** An uploaded image as the web shows it: URLs under /media (re-encoded WebP). */
export const itemImageSchema = z.object({ url: z.string(), thumb: z.string() });
export type ItemImage = z.infer<typeof itemImageSchema>;

/** POST /api/users/{id}/store-token-images (presigned POST instead of multipart; docs/api.md). */
export const uploadRequestSchema = z.object({
  kind: z.enum(['image', 'file'], { error: 'forms.validation.enum' }),
  content_type: z.string().min(1, { error: 'forms.validation.required' }).max(255),
  size: z.number().int().min(1, { error: 'forms.validation.too_small' }),
  name: z.string().trim().min(1).max(200).optional(),
});
export type UploadRequest = z.infer<typeof uploadRequestSchema>;
export const uploadTicketSchema = z.object({
  upload_id: z.string(),
  post: z.object({ url: z.string(), fields: z.record(z.string(), z.string()) }),
  expires_at: z.string(),
});
export type UploadTicket = z.infer<typeof uploadTicketSchema>;

/** POST /api/users/{id}/store-token-images/confirm {upload_id}: checked, re-encoded, recorded. */
export const uploadConfirmBodySchema = z.object({ upload_id: uploadIdSchema });
export const uploadedSchema = z.object({
  upload_id: z.string(),
  kind: z.enum(['image', 'file']),
  bytes: z.number().int(),
  image: itemImageSchema.nullable(),
  file: z.object({ name: z.string(), size: z.number().int(), type: z.string() }).nullable(),
});
export type Uploaded = z.infer<typeof uploadedSchema>;

/** The progress of a creation (answer of token/create and the live `item.creation` message). */
export const creationProgressSchema = z.object({
  item_id: z.string(),
  status: z.enum(CREATION_STATUS_VALUES),
  written: z.number().int(),
  total: z.number().int(),
  error: z.string().nullable(),
});
export type CreationProgress = z.infer<typeof creationProgressSchema>;

/** Display status of an item (spec 000 §4 token display status); only `available` so far. */
export const ITEM_DISPLAY_STATUSES = ['available'] as const;

export const itemSummarySchema = z.object({
  id: z.string(),
  product_type: productTypeSchema,
  title: z.string(),
  symbol: z.string(),
  image: itemImageSchema,
  copies: z.number().int(),
  issuer_id: z.string(),
  issuer_nick: z.string(),
  collection_id: z.string().nullable(),
  status: z.enum(ITEM_DISPLAY_STATUSES),
  created_at: z.string(),
  /** Copies the listed user holds (holdings lists); null elsewhere. */
  owned: z.number().int().nullable(),
  /** Shown on the holder's public profile (holdings lists of the caller); null elsewhere. */
  visible: z.boolean().nullable(),
});
export type ItemSummary = z.infer<typeof itemSummarySchema>;

export const itemPageSchema = z.object({
  items: z.array(itemSummarySchema),
  nextCursor: z.string().nullable(),
});
export type ItemPage = z.infer<typeof itemPageSchema>;

export const copySchema = z.object({
  nftuniqueid: z.string(),
  index: z.number().int(),
  owner_id: z.string(),
  owner_nick: z.string(),
  owner_since: z.string(),
  status: z.enum(['available', 'blocked', 'sold', 'not_available']),
});
export type Copy = z.infer<typeof copySchema>;

export const itemDetailSchema = itemSummarySchema.extend({
  description: z.string(),
  images: z.array(itemImageSchema),
  legal_terms: z.string(),
  transferable: z.boolean(),
  royalty: z.number().int().nullable(),
  beneficiary: z.object({ nick: z.string(), share: z.number().int() }).nullable(),
  ticket: z.object({ redeemer: z.string(), expires_at: z.string() }).nullable(),
  shipping: z
    .union([
      z.object({ mode: z.literal('delivery'), countries: z.array(z.string()) }),
      z.object({
        mode: z.literal('pickup'),
        address: z.object({
          country: z.string(),
          line1: z.string(),
          city: z.string(),
          postalcode: z.string(),
        }),
        instructions: z.string(),
      }),
    ])
    .nullable(),
  contact_email: z.string(),
  issuer: z.object({
    legal_form: z.string(),
    organisation: z.string(),
    country: z.string(),
    email: z.string(),
    governing_law: z.string(),
    jurisdiction: z.string(),
  }),
  /** The attached file's description; the file itself only by `…/file` for owners. */
  file: z.object({ name: z.string(), size: z.number().int(), type: z.string() }).nullable(),
  /** The caller holds a copy or created the item: the attached file can be downloaded. */
  can_download: z.boolean(),
  /** The first page of copies (serial order); more with GET …/copies?cursor=. */
  copies_page: z.object({ items: z.array(copySchema), nextCursor: z.string().nullable() }),
});
export type ItemDetail = z.infer<typeof itemDetailSchema>;

export const historyRecordSchema = z.object({
  seq: z.number().int(),
  event: z.enum(['minted', 'transferred', 'sold', 'refunded', 'redeemed']),
  from_id: z.string().nullable(),
  from_nick: z.string().nullable(),
  to_id: z.string(),
  to_nick: z.string(),
  at: z.string(),
  ref: z.string().nullable(),
  /** A sale's price per copy (minor units) and currency; null for other events. */
  price: z.object({ amount: z.number().int(), currency: z.string() }).nullable(),
  prev_hash: z.string(),
  hash: z.string(),
});
export const historySchema = z.object({
  nftuniqueid: z.string(),
  records: z.array(historyRecordSchema),
  head: z.string(),
  /** The chain verified against the copy's head when answering. */
  verified: z.boolean(),
});
export type History = z.infer<typeof historySchema>;

/** POST /api/users/{id}/token/getmyproducts (spec: last, onlyMint, tokenType, productType). */
export const TOKEN_TYPES = ['items', 'creations', 'tickets'] as const;
export const myProductsBodySchema = z.object({
  last: z.string().max(1024).nullish(),
  onlyMint: z.boolean().optional(),
  tokenType: z.enum(TOKEN_TYPES, { error: 'forms.validation.enum' }).optional(),
  productType: productTypeSchema.optional(),
  limit: z.number().int().min(1).max(50).optional(),
});
export type MyProductsBody = z.infer<typeof myProductsBodySchema>;

/** POST /api/users/{id}/token/getpublicproducts (spec: sourceUserNick). */
export const publicProductsBodySchema = z.object({
  sourceUserNick: nickSchema,
  last: z.string().max(1024).nullish(),
  limit: z.number().int().min(1).max(50).optional(),
});

/** POST /api/users/{id}/token/switch-visibility (spec payload not shown): ours. */
export const switchVisibilityBodySchema = z.object({
  item_id: uploadIdSchema,
  visible: z.boolean({ error: 'forms.validation.required' }),
});
export const visibilitySchema = z.object({ item_id: z.string(), visible: z.boolean() });

/** GET /api/users/{id}/get-user-limits (spec 001 §3: limitCapacity, overlay, firestore). */
export const userLimitsSchema = z.object({
  /** Bytes a creator may store. */
  limitCapacity: z.number().int(),
  /** Bytes used by attached files. */
  overlay: z.number().int(),
  /** Bytes used by images. */
  firestore: z.number().int(),
  mints: z.object({ used: z.number().int(), limit: z.number().int() }),
  /** No further item can be created (mints or bytes exhausted). */
  reached: z.boolean(),
});
export type UserLimits = z.infer<typeof userLimitsSchema>;

/** GET /api/users/{id}/token/{itemId}/file: a short-lived presigned GET for owners. */
export const fileLinkSchema = z.object({ url: z.string(), expires_at: z.string() });

// Collections (spec 000 §3 Collection: symbol, title, image, name).
export const createCollectionBodySchema = z.object({
  collection: z.object({
    symbol: symbolSchema,
    title: requiredText(ITEM_LIMITS.objectNameMax),
    image: uploadIdSchema,
  }),
});
export type CreateCollectionBody = z.infer<typeof createCollectionBodySchema>;
export const collectionSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  title: z.string(),
  /** The title lower-cased: unique per owner ("collection already exists"). */
  name: z.string(),
  image: itemImageSchema,
  owner_id: z.string(),
  owner_nick: z.string(),
  items_count: z.number().int(),
  created_at: z.string(),
});
export type Collection = z.infer<typeof collectionSchema>;
export const collectionListSchema = z.object({ items: z.array(collectionSchema) });
export const collectionPageSchema = z.object({
  collection: collectionSchema,
  items: z.array(itemSummarySchema),
  nextCursor: z.string().nullable(),
});
export type CollectionPage = z.infer<typeof collectionPageSchema>;
/** GET users/{id|-}/token/getcollection/{collectionId}: `{id}` any user id or '-' (public). */
export const collectionPathSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'forms.validation.invalid' }),
  collectionId: uploadIdSchema,
});
export const collectionPageQuerySchema = z.object({
  cursor: z
    .string()
    .min(1, { error: 'forms.validation.cursor' })
    .max(2048, { error: 'forms.validation.cursor' })
    .optional(),
});

// Paths and answers of the items calls (functions/items/handlers).
const pathUserId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'forms.validation.invalid' });
/** `{id}` of users/{id}/…: the caller on user routes; any id (e.g. '-') on public ones. */
export const itemsUserPathSchema = z.object({ id: pathUserId });
export const itemPathSchema = z.object({ id: pathUserId, itemId: uploadIdSchema });
export const historyPathSchema = z.object({
  id: pathUserId,
  nftuniqueid: z.string().regex(/^[0-9A-Z]{26}-\d{3}$/, { error: 'forms.validation.invalid' }),
});
export const copiesQuerySchema = z.object({ cursor: z.string().max(2048).optional() });
export const copiesPageSchema = z.object({
  items: z.array(copySchema),
  nextCursor: z.string().nullable(),
});
export const abandonedCreationSchema = z.object({
  item_id: z.string(),
  abandoned: z.literal(true),
});
