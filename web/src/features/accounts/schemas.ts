import { PROFILE_LIMITS } from '@shared/constants/limits';
import * as z from 'zod';

import {
  emailSchema,
  forgotPasswordFormSchema,
  normalisePhone,
  passwordPairSchema,
  passwordSchema,
  phoneSchema,
  signupNickSchema as nickSchema,
} from '@shared/schemas/accounts';

/**
 * The sign-up and login forms (spec 001 §5), built from the accounts API's own field schemas, so
 * a field error reads the same in the form and in the API's answer (messages are i18n keys).
 */
export {
  emailSchema,
  forgotPasswordFormSchema,
  nickSchema,
  normalisePhone,
  passwordPairSchema,
  passwordSchema,
  phoneSchema,
};

export const PIN_LENGTH = PROFILE_LIMITS.pinLength;

/** Step 0: the e-mail, plus the password when password login is switched on. */
export function loginFormSchema(passwordLogin: boolean) {
  return z.object({
    email: emailSchema,
    password: passwordLogin ? passwordSchema : z.string().optional(),
  });
}
export type LoginForm = { email: string; password: string | undefined };

const required = z.string().trim().max(100, 'forms.validation.too_big');

const signupObject = z.object({
  user_option: z.enum(['individual', 'company'], 'forms.validation.required'),
  nick: nickSchema,
  email: emailSchema,
  phone: phoneSchema,
  name: required,
  surname: required,
  entity_name: required,
  terms: z.boolean().refine((value) => value, 'forms.validation.terms'),
  /** Only while the passwordLogin switch is on (spec 001 §5: 6–32, both entries identical). */
  password: z.string().optional(),
  password_repeat: z.string().optional(),
});

/** The sign-up form; with `passwordLogin` the password and its repeat are required too. */
export function signupFormSchemaFor(passwordLogin: boolean) {
  return signupObject.superRefine((value, ctx) => {
    const needed =
      value.user_option === 'company' ? (['entity_name'] as const) : (['name', 'surname'] as const);
    for (const field of needed) {
      if (value[field] === '') {
        ctx.addIssue({ code: 'custom', path: [field], message: 'forms.validation.required' });
      }
    }
    if (!passwordLogin) return;
    const pair = passwordPairSchema.safeParse({
      password: value.password ?? '',
      repeat: value.password_repeat ?? '',
    });
    if (pair.success) return;
    for (const issue of pair.error.issues) {
      const path = issue.path[0] === 'repeat' ? 'password_repeat' : 'password';
      ctx.addIssue({ code: 'custom', path: [path], message: issue.message });
    }
  });
}

export const signupFormSchema = signupFormSchemaFor(false);

export type SignupFormInput = z.input<typeof signupFormSchema>;
export type SignupFormValues = z.output<typeof signupFormSchema>;

/** POST /api/users/register body. */
export type RegisterBody = {
  user: {
    user_option: 'individual' | 'company';
    nick: string;
    email: string;
    phone: string;
    terms: true;
    /** Only while the passwordLogin switch is on. */
    password?: string;
  } & ({ name: string; surname: string } | { entity_name: string });
};

export function registerBody(values: SignupFormValues, passwordLogin = false): RegisterBody {
  const base = {
    user_option: values.user_option,
    nick: values.nick,
    email: values.email,
    phone: values.phone,
    terms: true as const,
    ...(passwordLogin && values.password !== undefined ? { password: values.password } : {}),
  };
  return {
    user:
      values.user_option === 'company'
        ? { ...base, entity_name: values.entity_name }
        : { ...base, name: values.name, surname: values.surname },
  };
}
