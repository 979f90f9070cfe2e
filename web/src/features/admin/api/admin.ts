import { sessionSchema, type Session } from '@shared/schemas/sessions';
import { apiGet } from '../../../lib/api';

export const adminKeys = {
  session: (userId: string) => ['admin', 'session', userId] as const,
};

/** GET /api/session: the caller as the API sees them, with the `admin` flag (support). */
export function fetchSession(signal?: AbortSignal): Promise<Session> {
  return apiGet('/session', { schema: sessionSchema, signal });
}
