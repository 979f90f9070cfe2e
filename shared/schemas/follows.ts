import * as z from 'zod';

/** A user id as the follows calls take it (our ids are ULIDs; anything id-like is looked up). */
export const userIdSchema = z
  .string({ error: 'forms.validation.required' })
  .min(1, { error: 'forms.validation.required' })
  .max(64, { error: 'forms.validation.too_big' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'forms.validation.invalid' });

/** Body of POST /api/rels/follow and /api/rels/unfollow (spec 001 §7 `{uid}`). */
export const followBodySchema = z.object({ uid: userIdSchema });
export type FollowBody = z.infer<typeof followBodySchema>;

/** Answer of follow and unfollow: the caller's relation and the followed user's new counter. */
export const followResultSchema = z.object({
  following: z.boolean(),
  followers_counter: z.number().int().nonnegative(),
});
export type FollowResult = z.infer<typeof followResultSchema>;

/** Body of POST /api/rels/check/is-following (spec 001 §7 `{followed}`). */
export const isFollowingBodySchema = z.object({ followed: userIdSchema });
export type IsFollowingBody = z.infer<typeof isFollowingBodySchema>;
export const isFollowingResultSchema = z.object({ following: z.boolean() });

/** Body of POST /api/rels/check/is-follower (spec 001 §7 `{follower}`). */
export const isFollowerBodySchema = z.object({ follower: userIdSchema });
export type IsFollowerBody = z.infer<typeof isFollowerBodySchema>;
export const isFollowerResultSchema = z.object({ follower: z.boolean() });
