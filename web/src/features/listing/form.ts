import { ITEM_LIMITS } from '@shared/constants/limits';
import { formatMoney } from '@shared/format';
import { parseAmount, type FIAT_CURRENCIES } from '@shared/money';
import {
  createCollectionBodySchema,
  ITEM_IMAGE_TYPES,
  NO_TERMS,
  symbolSchema,
} from '@shared/schemas/items';
import {
  listingContractSchema,
  listingViolations,
  type Category,
  type ListingContext,
  type ListingContract,
  type ListingRuleContext,
  type OfferingType,
} from '@shared/schemas/offerings';
import * as z from 'zod';

export type ListingCurrency = (typeof FIAT_CURRENCIES)[number];

/** The collection select's value for "create a new one". */
export const NEW_COLLECTION = 'new';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The default end: a week after the start. */
export const DEFAULT_DURATION_MS = 7 * DAY_MS;

/**
 * What the list form edits. Amounts are the text the user typed in major units ("12.50"); dates
 * are `datetime-local` values in the viewer's zone. `toListing` turns them into the contract
 * (integer minor units, ISO dates in UTC).
 */
export interface ListFormValues {
  type: OfferingType;
  copies: number;
  currency: ListingCurrency;
  price: string;
  payment_mode: 'fullprice' | 'deposit';
  deposit: string;
  buy_now: boolean;
  buy_price: string;
  /** Auctions: a hidden reserve price (below it no bid wins). */
  reserve: boolean;
  reserve_price: string;
  multi_copy: boolean;
  start_at: string;
  end_at: string;
  categories: Category[];
  notes: string;
  terms: string;
  no_terms: boolean;
  access: 'public' | 'private';
  invited: string[];
  /** '' for none, {@link NEW_COLLECTION}, or one of the caller's collection ids. */
  collection_id: string;
  new_collection: { name: string; symbol: string; image: File | null };
}

/** What a valid form gives: the contract, and the collection to create first (or null). */
export interface ListFormOutput extends ListingContract {
  new_collection: { name: string; symbol: string; image: File } | null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A date as a `datetime-local` value in the viewer's zone ('2026-11-22T10:05'). */
export function toLocalInput(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A `datetime-local` value (the viewer's zone) as ISO-8601 UTC; '' stays missing. */
export function fromLocalInput(local: string): string | undefined {
  if (local.trim() === '') return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/**
 * A typed amount in minor units: '' is missing (undefined), text that is no amount of the
 * currency (letters, too many decimals) is NaN, which the contract refuses.
 */
export function minorAmountOf(text: string, currency: ListingCurrency): number | undefined {
  if (text.trim() === '') return undefined;
  return parseAmount(text, currency)?.amount ?? Number.NaN;
}

/**
 * How a typed amount is read ('1.250' is 1250 in the spec's format, thousands '.', decimal ','),
 * shown under the field so the seller sees the price that will be sent; null when it is none.
 */
export function amountPreview(text: string, currency: ListingCurrency): string | null {
  if (text.trim() === '') return null;
  const amount = parseAmount(text, currency);
  return amount ? formatMoney(amount) : null;
}

/** A collection symbol from its name: lowercase letters, digits and single hyphens, ≤ 20. */
export function symbolFromName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, ITEM_LIMITS.objectNameMax)
    .replace(/-+$/, '');
}

export function emptyListForm(now: Date): ListFormValues {
  return {
    type: 'fixed',
    copies: 1,
    currency: 'USD',
    price: '',
    payment_mode: 'fullprice',
    deposit: '',
    buy_now: false,
    buy_price: '',
    reserve: false,
    reserve_price: '',
    multi_copy: false,
    start_at: toLocalInput(now),
    end_at: toLocalInput(new Date(now.getTime() + DEFAULT_DURATION_MS)),
    categories: [],
    notes: '',
    terms: '',
    no_terms: false,
    access: 'public',
    invited: [],
    collection_id: '',
    new_collection: { name: '', symbol: '', image: null },
  };
}

/**
 * The contract the form stands for (fields that do not apply to the type or mode are null or
 * empty), with the new collection to create when one is asked for.
 */
export function toListing(values: ListFormValues, itemId: string): Record<string, unknown> {
  const auction = values.type === 'auction';
  const { currency } = values;
  const isNew = values.collection_id === NEW_COLLECTION;
  return {
    item_id: itemId,
    type: values.type,
    copies: Number.isFinite(values.copies) ? values.copies : undefined,
    currency,
    price: minorAmountOf(values.price, currency),
    payment_mode: values.payment_mode,
    deposit:
      values.payment_mode === 'deposit' ? (minorAmountOf(values.deposit, currency) ?? null) : null,
    buy_price: auction && values.buy_now ? minorAmountOf(values.buy_price, currency) : null,
    // Switched on, a reserve is required: left empty it is NaN, which the contract refuses
    // (undefined would fall back to the contract's default, no reserve).
    reserve_price:
      auction && values.reserve
        ? (minorAmountOf(values.reserve_price, currency) ?? Number.NaN)
        : null,
    multi_copy: auction && values.multi_copy,
    start_at: fromLocalInput(values.start_at),
    end_at: fromLocalInput(values.end_at),
    categories: values.categories,
    notes: values.notes,
    terms: values.no_terms ? NO_TERMS : values.terms,
    access: values.access,
    invited: values.access === 'private' ? values.invited : [],
    collection_id: values.collection_id === '' || isNew ? null : values.collection_id,
    new_collection: isNew ? values.new_collection : null,
  };
}

const imageSchema = z
  .custom<File>((value) => typeof File !== 'undefined' && value instanceof File, {
    error: 'forms.validation.required',
  })
  .refine((file) => (ITEM_IMAGE_TYPES as readonly string[]).includes(file.type), {
    error: 'listing.form.collection.imageType',
  })
  .refine((file) => file.size <= ITEM_LIMITS.imageMaxBytes, {
    error: 'listing.form.collection.imageSize',
  });

/** A new collection (spec 000 §5: a name; an image under 8 MB of a valid type, required). */
const newCollectionSchema = z.object({
  name: createCollectionBodySchema.shape.collection.shape.title,
  symbol: symbolSchema,
  image: imageSchema,
});

/** The facts the listing rules need, with the clock read at each validation. */
export function ruleContextOf(context: ListingContext, now: Date): ListingRuleContext {
  return {
    now,
    product_type: context.item.product_type,
    ticket_expires_at: context.item.ticket_expires_at,
    free_copies: context.free_copies,
    qr_copies: context.qr_copies,
    is_creator: context.is_creator,
    transferable: context.item.transferable,
  };
}

/**
 * The list form's one schema: the values become the contract, which `listingContractSchema` and
 * the shared listing rules (`listingViolations`, run with the time of each check) validate. Issue
 * paths are the contract's field names, which the form's fields follow.
 */
export function listFormSchema(
  itemId: string,
  context: ListingContext,
  clock: () => Date = () => new Date(),
) {
  return z
    .custom<ListFormValues>()
    .transform((values) => toListing(values, itemId))
    .pipe(
      listingContractSchema
        .extend({ new_collection: newCollectionSchema.nullable() })
        .superRefine((output, issues) => {
          for (const violation of listingViolations(output, ruleContextOf(context, clock()))) {
            issues.addIssue({
              code: 'custom',
              message: violation.code,
              path: violation.field.split('.'),
            });
          }
        }),
    );
}

/** The contract sent to offering/create, without the form's new-collection part. */
export function contractOf(output: ListFormOutput, collectionId: string | null): ListingContract {
  const { new_collection: _unused, ...contract } = output;
  return { ...contract, collection_id: collectionId ?? contract.collection_id };
}
