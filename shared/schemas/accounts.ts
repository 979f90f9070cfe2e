import * as z from 'zod';
import { PROFILE_LIMITS } from '../constants/limits';
import { nickSchema as profileNickSchema, userOptionSchema } from './profiles';

/**
 * Sign-up and availability checks (spec 001 §5, §7 users/register, users/check-*). Messages are
 * error codes (the web's i18n keys), so a field reads the same in the form and in the API answer.
 * The same schemas run in the sign-up form (react-hook-form + zod resolver) and in the handlers.
 */

/** Nick: 3–64 lowercase letters and digits. Input is lower-cased first (fields are lower-cased). */
export const signupNickSchema = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .toLowerCase()
  .pipe(profileNickSchema);

/** Standard e-mail pattern; stored and compared lower-cased. */
export const emailSchema = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .toLowerCase()
  .pipe(
    z
      .string()
      .min(1, { error: 'forms.validation.required' })
      .max(254, { error: 'forms.validation.email' })
      .pipe(z.email({ error: 'forms.validation.email' })),
  );

/** Spaces, dashes, brackets, '#' and 'x' are stripped before registration (spec 001 §5). */
export function normalisePhone(raw: string): string {
  return raw.replace(/[\s\-()[\]{}#xX]/g, '');
}

/** E.164 after stripping: '+' then 8–15 digits, the first not 0. */
export const PHONE_PATTERN = /^\+[1-9]\d{7,14}$/;

export const phoneSchema = z
  .string({ error: 'forms.validation.required' })
  .transform(normalisePhone)
  .pipe(
    z
      .string()
      .min(1, { error: 'forms.validation.required' })
      .regex(PHONE_PATTERN, { error: 'forms.validation.phone' }),
  );

/**
 * Password (only while the passwordLogin switch is on; spec 001 §5): 6 to 32 characters. Never
 * trimmed or lower-cased: it is passed to Cognito exactly as typed.
 */
export const passwordSchema = z
  .string({ error: 'forms.validation.required' })
  .min(1, { error: 'forms.validation.required' })
  .min(PROFILE_LIMITS.passwordMin, { error: 'forms.validation.password' })
  .max(PROFILE_LIMITS.passwordMax, { error: 'forms.validation.password' });

const personName = z
  .string({ error: 'forms.validation.required' })
  .trim()
  .min(1, { error: 'forms.validation.required' })
  .max(100, { error: 'forms.validation.too_big' });

const common = {
  nick: signupNickSchema,
  email: emailSchema,
  phone: phoneSchema,
  terms: z.literal(true, { error: 'forms.validation.terms' }),
  /**
   * Required while the passwordLogin switch is on, refused (400 on `user.password`) while it is
   * off; the sign-up use case enforces both, since the switch is read at call time.
   */
  password: passwordSchema.optional(),
};

/** The `user` of POST /api/users/register: an individual (name, surname) or a company. */
export const registerUserSchema = z.discriminatedUnion(
  'user_option',
  [
    z.object({
      user_option: z.literal('individual'),
      ...common,
      name: personName,
      surname: personName,
    }),
    z.object({ user_option: z.literal('company'), ...common, entity_name: personName }),
  ],
  { error: 'forms.validation.enum' },
);
export type RegisterUser = z.infer<typeof registerUserSchema>;

export const registerBodySchema = z.object({
  user: registerUserSchema,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const registeredSchema = z.object({
  id: z.string(),
  nick: z.string(),
  email: z.string(),
  phone: z.string(),
  user_option: userOptionSchema,
});
export type Registered = z.infer<typeof registeredSchema>;

/** Path of GET /api/users/check-nickname/{value} etc. */
export const checkNickPathSchema = z.object({ value: signupNickSchema });
export const checkEmailPathSchema = z.object({ value: emailSchema });
export const checkMobilePathSchema = z.object({ value: phoneSchema });

export const availabilitySchema = z.object({ available: z.boolean() });
export type Availability = z.infer<typeof availabilitySchema>;

/** The fields that must be unique, as named in a 409's `fields`. */
export const UNIQUE_FIELDS = ['nick', 'email', 'phone'] as const;
export type UniqueField = (typeof UNIQUE_FIELDS)[number];
export const TAKEN_CODES = {
  nick: 'forms.validation.taken.nick',
  email: 'forms.validation.taken.email',
  phone: 'forms.validation.taken.phone',
} as const satisfies Record<UniqueField, string>;

/** Path of POST /api/password/email/{email} (spec 001 §7 password/email, a POST here). */
export const passwordEmailPathSchema = z.object({ email: emailSchema });

/** Same answer whether or not the e-mail belongs to an account (no enumeration). */
export const passwordResetRequestedSchema = z.object({ requested: z.literal(true) });
export type PasswordResetRequested = z.infer<typeof passwordResetRequestedSchema>;

/**
 * The single-use token of a reset link (32 random bytes, base64url). Only its presence is
 * checked here: a malformed, unknown, expired or used token is one answer of the use case,
 * `password.errors.token_invalid`.
 */
export const resetTokenSchema = z
  .string({ error: 'forms.validation.required' })
  .min(1, { error: 'forms.validation.required' })
  .max(256, { error: 'password.errors.token_invalid' });

/** POST /api/password/reset {password, token} (spec 001 §7). */
export const passwordResetBodySchema = z.object({
  password: passwordSchema,
  token: resetTokenSchema,
});
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;

export const passwordResetDoneSchema = z.object({ reset: z.literal(true) });
export type PasswordResetDone = z.infer<typeof passwordResetDoneSchema>;

/** The web's forms: a password and its repeat, identical (spec 001 §5). */
export const passwordPairSchema = z
  .object({ password: passwordSchema, repeat: z.string() })
  .refine((value) => value.password === value.repeat, {
    path: ['repeat'],
    error: 'forms.validation.password_mismatch',
  });
export type PasswordPair = z.infer<typeof passwordPairSchema>;

/** The forgot-password form: one e-mail. */
export const forgotPasswordFormSchema = z.object({ email: emailSchema });
