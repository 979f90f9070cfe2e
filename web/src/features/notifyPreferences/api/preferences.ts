import {
  notificationPreferencesSchema,
  unsubscribeAnswerSchema,
  type EmailGroup,
  type NotificationPreferences,
  type UpdatePreferencesBody,
} from '@shared/schemas/notifications';
import { apiGet, apiPost, apiRequest } from '../../../lib/api';

export const preferenceKeys = {
  all: ['notifyPreferences'] as const,
  of: (userId: string) => [...preferenceKeys.all, userId] as const,
};

const enc = encodeURIComponent;

/** GET /api/notifications/{id}/preferences → { data: { email: { orders, auctions, … } } }. */
export function fetchPreferences(
  userId: string,
  signal?: AbortSignal,
): Promise<NotificationPreferences> {
  return apiGet(`/notifications/${enc(userId)}/preferences`, {
    schema: notificationPreferencesSchema,
    signal,
  });
}

/** PUT /api/notifications/{id}/preferences { email: { <some groups> } } → { data: preferences }. */
export function updatePreferences(
  userId: string,
  email: UpdatePreferencesBody['email'],
): Promise<NotificationPreferences> {
  return apiRequest(`/notifications/${enc(userId)}/preferences`, {
    method: 'PUT',
    body: { email },
    schema: notificationPreferencesSchema,
  });
}

/**
 * POST /api/notifications/unsubscribe { token } → { data: { group } }: an e-mail's link, no session
 * needed (the token is signed per user); 400 notifications.errors.unsubscribe_invalid otherwise.
 */
export async function unsubscribe(token: string): Promise<EmailGroup> {
  const { group } = await apiPost(
    '/notifications/unsubscribe',
    { token },
    { schema: unsubscribeAnswerSchema },
  );
  return group;
}
