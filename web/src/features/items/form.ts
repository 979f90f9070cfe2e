import {
  createItemContractSchema,
  createItemViolations,
  NO_TERMS,
  normaliseTerms,
  type CreateItemContract,
} from '@shared/schemas/items';
import { ITEM_LIMITS } from '@shared/constants/limits';
import type { ProductType } from '@shared/switches';
import * as z from 'zod';

/** What the mint form edits; `toContract` turns it into the create-item contract. */
export interface MintFormValues {
  product_type: ProductType;
  title: string;
  description: string;
  copies: number;
  symbol: string;
  /** Upload ids of confirmed images, the main one first (kept by the image picker). */
  images: string[];
  file: { upload: string } | null;
  /** '' for none. */
  collection_id: string;
  shipping: {
    mode: 'delivery' | 'pickup';
    countries: string[];
    address: { country: string; line1: string; city: string; postalcode: string };
    instructions: string;
  };
  legal_terms: string;
  no_terms: boolean;
  transferable: boolean;
  /** '' for none. */
  royalty: string;
  beneficiary_on: boolean;
  beneficiary: { nick: string; share: string };
  ticket: { redeemer: string; expires_at: string };
  contact_email: string;
  issuer: {
    legal_form: string;
    organisation: string;
    country: string;
    email: string;
    governing_law: string;
    jurisdiction: string;
  };
}

export function emptyMintForm(type: ProductType, email = ''): MintFormValues {
  return {
    product_type: type,
    title: '',
    description: '',
    copies: 1,
    symbol: '',
    images: [],
    file: null,
    collection_id: '',
    shipping: {
      mode: 'delivery',
      countries: [],
      address: { country: '', line1: '', city: '', postalcode: '' },
      instructions: '',
    },
    legal_terms: '',
    no_terms: false,
    transferable: true,
    royalty: '',
    beneficiary_on: false,
    beneficiary: { nick: '', share: '' },
    ticket: { redeemer: '', expires_at: '' },
    contact_email: email,
    issuer: {
      legal_form: '',
      organisation: '',
      country: '',
      email: '',
      governing_law: '',
      jurisdiction: '',
    },
  };
}

/** Royalty applies to resellable, non-physical items only. */
export function royaltyApplies(type: ProductType, transferable: boolean): boolean {
  return type !== 'physical' && transferable;
}

function toNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isNaN(value) ? Number.NaN : value;
}

/** A local `datetime-local` value as ISO-8601 with offset ('' stays '' and fails validation). */
function toIso(local: string): string {
  if (local === '') return '';
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/** The contract the form stands for: fields that do not apply to the type are left out. */
export function toContract(values: MintFormValues): Record<string, unknown> {
  const type = values.product_type;
  const { shipping } = values;
  return {
    product_type: type,
    title: values.title,
    description: values.description,
    copies: Number.isFinite(values.copies) ? values.copies : undefined,
    symbol: values.symbol,
    images: values.images,
    file: values.file,
    collection_id: values.collection_id === '' ? null : values.collection_id,
    shipping:
      type !== 'physical'
        ? null
        : shipping.mode === 'delivery'
          ? { mode: 'delivery', countries: shipping.countries }
          : { mode: 'pickup', address: shipping.address, instructions: shipping.instructions },
    legal_terms: values.no_terms ? NO_TERMS : values.legal_terms,
    transferable: values.transferable,
    royalty: royaltyApplies(type, values.transferable) ? (toNumber(values.royalty) ?? null) : null,
    beneficiary: values.beneficiary_on
      ? { nick: values.beneficiary.nick, share: toNumber(values.beneficiary.share) }
      : null,
    ticket:
      type === 'ticket'
        ? { redeemer: values.ticket.redeemer, expires_at: toIso(values.ticket.expires_at) }
        : null,
    contact_email: values.contact_email,
    issuer: values.issuer,
  };
}

/**
 * The form's schema: the values become the contract, which the shared schema and the shared
 * cross-field rules check (issue paths are the contract's, which the form's field names follow).
 */
export function mintFormSchema(mintableTypes: readonly ProductType[]) {
  return z
    .custom<MintFormValues>()
    .transform((values) => toContract(values))
    .pipe(
      createItemContractSchema
        .transform((contract) => ({
          ...contract,
          legal_terms: normaliseTerms(contract.legal_terms),
        }))
        .superRefine((contract: CreateItemContract, issues) => {
          for (const violation of createItemViolations(contract, { mintableTypes })) {
            issues.addIssue({
              code: 'custom',
              message: violation.code,
              path: violation.field.split('.'),
            });
          }
        }),
    );
}

export const MINT_LIMITS = ITEM_LIMITS;
