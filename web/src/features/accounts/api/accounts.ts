import * as z from 'zod';
import { apiGet, apiPost } from '../../../lib/api';
import type { RegisterBody } from '../schemas';

export const registeredSchema = z.object({ id: z.string(), nick: z.string() });
export type Registered = z.infer<typeof registeredSchema>;

/** POST /api/users/register → 201 { data: { id, nick } }; 409 names the taken fields. */
export function register(body: RegisterBody): Promise<Registered> {
  return apiPost('/users/register', body, { schema: registeredSchema });
}

export type AvailabilityKind = 'nick' | 'email' | 'phone';

const CHECK_PATHS: Record<AvailabilityKind, string> = {
  nick: 'check-nickname',
  email: 'check-email',
  phone: 'check-mobile',
};

const availabilitySchema = z.object({ available: z.boolean() });

/** GET /api/users/check-nickname|check-email|check-mobile/{value} → { data: { available } }. */
export async function checkAvailability(
  kind: AvailabilityKind,
  value: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const path = `/users/${CHECK_PATHS[kind]}/${encodeURIComponent(value)}`;
  const { available } = await apiGet(path, { schema: availabilitySchema, signal });
  return available;
}

const resetRequestedSchema = z.object({ requested: z.literal(true) });
const resetDoneSchema = z.object({ reset: z.literal(true) });

/**
 * POST /api/password/email/{email} (spec 001 §7 password/email, a POST here): the same answer
 * whether or not the e-mail has an account.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await apiPost(`/password/email/${encodeURIComponent(email)}`, undefined, {
    schema: resetRequestedSchema,
  });
}

/** POST /api/password/reset {password, token}; 400 password.errors.token_invalid. */
export async function resetPassword(body: { password: string; token: string }): Promise<void> {
  await apiPost('/password/reset', body, { schema: resetDoneSchema });
}
