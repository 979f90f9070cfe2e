import * as z from 'zod';

/**
 * Postal addresses (spec 001 §3 "Postal address"; §5: country, full name, address line, postal
 * code, city and state/province required). Field names are the spec's. Length bounds are ours (the
 * spec names none): they only keep items small.
 */
export const ADDRESS_LIMITS = {
  /** Addresses per user. */
  maxPerUser: 20,
  fullnameMax: 100,
  lineMax: 200,
  postalcodeMax: 20,
  cityMax: 100,
  stateprovinceMax: 100,
  instructionsMax: 500,
} as const;

/** ISO 3166-1 alpha-2: the 249 officially assigned codes. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR ' +
    'BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ ' +
    'EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW ' +
    'GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY ' +
    'KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV ' +
    'MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY ' +
    'QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG ' +
    'TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

function required(max: number) {
  return z
    .string({ error: 'forms.validation.required' })
    .trim()
    .min(1, { error: 'forms.validation.required' })
    .max(max, { error: 'forms.validation.too_big' });
}

/** Optional text: absent, null or blank all mean null. */
function optional(max: number) {
  return z
    .string({ error: 'forms.validation.invalid' })
    .trim()
    .max(max, { error: 'forms.validation.too_big' })
    .nullish()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));
}

export const countrySchema = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .min(1, { error: 'forms.validation.required' })
  .transform((value) => value.toUpperCase())
  .refine((value) => COUNTRY_CODES.has(value), { error: 'forms.validation.country' });

/** The address form (add and update). `default` true makes it the user's default address. */
export const addressInputSchema = z.object({
  country: countrySchema,
  fullname: required(ADDRESS_LIMITS.fullnameMax),
  line1: required(ADDRESS_LIMITS.lineMax),
  line2: optional(ADDRESS_LIMITS.lineMax),
  postalcode: required(ADDRESS_LIMITS.postalcodeMax),
  city: required(ADDRESS_LIMITS.cityMax),
  stateprovince: required(ADDRESS_LIMITS.stateprovinceMax),
  instructions: optional(ADDRESS_LIMITS.instructionsMax),
  default: z.boolean({ error: 'forms.validation.invalid' }).optional(),
});
export type AddressInput = z.infer<typeof addressInputSchema>;

/** Body of POST /api/users/{id}/addaddress and PUT …/updateaddress/{addressId} (spec `{address}`). */
export const addressBodySchema = z.object({ address: addressInputSchema });
export type AddressBody = z.infer<typeof addressBodySchema>;

const idPart = z
  .string()
  .min(1, { error: 'forms.validation.required' })
  .max(64, { error: 'forms.validation.too_big' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'forms.validation.invalid' });

export const userPathSchema = z.object({ id: idPart });
export type UserPath = z.infer<typeof userPathSchema>;
export const addressPathSchema = z.object({ id: idPart, addressId: idPart });
export type AddressPath = z.infer<typeof addressPathSchema>;

export const addressSchema = z.object({
  id: z.string(),
  country: z.string(),
  fullname: z.string(),
  line1: z.string(),
  line2: z.string().nullable(),
  postalcode: z.string(),
  city: z.string(),
  stateprovince: z.string(),
  instructions: z.string().nullable(),
  default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

/** GET /api/users/{id}/addresses: all of them (at most 20, so no pages), default first. */
export const addressListSchema = z.object({ items: z.array(addressSchema) });
export type AddressList = z.infer<typeof addressListSchema>;

export const deletedAddressSchema = z.object({
  deleted: z.string(),
  /** The id of the default address after the delete, or null when none is left. */
  default: z.string().nullable(),
});
export type DeletedAddress = z.infer<typeof deletedAddressSchema>;
