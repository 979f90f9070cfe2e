import * as z from 'zod';

/** Sessions and admins' block/unblock (issue 3 items 4 and 11). */

/** GET /api/session: the caller, after the per-call session check passed. */
export const sessionSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
});
export type Session = z.infer<typeof sessionSchema>;

/** POST /api/session/logout */
export const loggedOutSchema = z.object({
  userId: z.string(),
  /** Every access token signed in before this instant is refused from now on. */
  revokedAt: z.string(),
});

/** Our user ids are ULIDs (the Cognito username); matched upper-case. */
export const adminUserPathSchema = z.object({
  userId: z
    .string({ error: 'forms.validation.required' })
    .trim()
    .toUpperCase()
    .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, { error: 'forms.validation.invalid' }),
});

/** POST /api/admin/users/{userId}/block|unblock */
export const blockStateSchema = z.object({
  userId: z.string(),
  blocked: z.boolean(),
});
