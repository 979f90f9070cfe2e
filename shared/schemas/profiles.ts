import * as z from 'zod';
import { PAGE_SIZE, PROFILE_LIMITS } from '../constants/limits';

/** Account types (spec 001 §3 user_option). */
export const USER_OPTIONS = ['individual', 'company'] as const;
export const userOptionSchema = z.enum(USER_OPTIONS);
export type UserOption = z.infer<typeof userOptionSchema>;

/** Nick (username): 3 to 64 characters, lowercase letters and digits only (spec 001 §5). */
export const nickSchema = z
  .string({ error: 'forms.validation.required' })
  .min(PROFILE_LIMITS.nickMin, { error: 'forms.validation.too_small' })
  .max(PROFILE_LIMITS.nickMax, { error: 'forms.validation.too_big' })
  .regex(/^[a-z0-9]+$/, { error: 'forms.validation.invalid' });

/** A seller as the directory shows it: avatar, name, @nick, follower count. Spec field names. */
export const sellerSummarySchema = z.object({
  id: z.string(),
  nick: z.string(),
  /** Display name: name and surname for individuals, entity_name for companies. */
  name: z.string(),
  user_option: userOptionSchema,
  title: z.string().nullable(),
  /** Absolute or origin-relative URL of the avatar thumbnail; null when the user has none. */
  profile_image: z.string().nullable(),
  followers_counter: z.number().int().nonnegative(),
  is_verified: z.boolean(),
});
export type SellerSummary = z.infer<typeof sellerSummarySchema>;

/** Query of GET /api/users/sellers. */
export const listSellersQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'forms.validation.invalid' })
    .int({ error: 'forms.validation.invalid' })
    .min(1, { error: 'forms.validation.too_small' })
    .max(PAGE_SIZE.large, { error: 'forms.validation.too_big' })
    .default(PAGE_SIZE.large),
  cursor: z
    .string()
    .min(1, { error: 'forms.validation.cursor' })
    .max(1024, { error: 'forms.validation.cursor' })
    .optional(),
});
export type ListSellersQuery = z.infer<typeof listSellersQuerySchema>;

export const sellerPageSchema = z.object({
  items: z.array(sellerSummarySchema),
  /** Opaque; pass back as `cursor` for the next page. null on the last page. */
  nextCursor: z.string().nullable(),
});
export type SellerPage = z.infer<typeof sellerPageSchema>;
