import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailGroup, NotificationPreferences } from '@shared/schemas/notifications';
import {
  fetchPreferences,
  preferenceKeys,
  unsubscribe,
  updatePreferences,
} from '../api/preferences';

export function usePreferences(userId: string) {
  return useQuery({
    queryKey: preferenceKeys.of(userId),
    queryFn: ({ signal }) => fetchPreferences(userId, signal),
  });
}

function withGroup(
  preferences: NotificationPreferences,
  group: EmailGroup,
  on: boolean,
): NotificationPreferences {
  return { ...preferences, email: { ...preferences.email, [group]: on } };
}

/**
 * Turns e-mail for one group on or off: the switch moves at once (optimistic) and moves back if
 * the call fails. Only that group is sent, so toggling two groups at once cannot undo either. The
 * caller shows the failure (`onError` of `mutate`), so the global mutation toast stays quiet.
 */
export function useEmailGroupSwitch(userId: string, group: EmailGroup) {
  const queryClient = useQueryClient();
  const queryKey = preferenceKeys.of(userId);
  const savingKey = [...queryKey, 'email'] as const;
  return useMutation({
    mutationKey: [...savingKey, group],
    mutationFn: (on: boolean) => updatePreferences(userId, { [group]: on }),
    onMutate: async (on) => {
      // A load still on its way must not overwrite the new value with the old one.
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData<NotificationPreferences>(queryKey)?.email[group];
      queryClient.setQueryData<NotificationPreferences>(queryKey, (current) =>
        current ? withGroup(current, group, on) : current,
      );
      return { before };
    },
    onError: (_error, _on, context) => {
      const before = context?.before;
      if (before === undefined) return;
      queryClient.setQueryData<NotificationPreferences>(queryKey, (current) =>
        current ? withGroup(current, group, before) : current,
      );
    },
    onSuccess: (answer) => {
      // The answer is the server's truth; while another group is still saving, only this group's
      // value is taken (the other's answer will bring its own).
      const alone = queryClient.isMutating({ mutationKey: savingKey }) <= 1;
      queryClient.setQueryData<NotificationPreferences>(queryKey, (current) =>
        alone || !current ? answer : withGroup(current, group, answer.email[group]),
      );
    },
  });
}

/** The unsubscribe link's call; the page shows every outcome itself. */
export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsubscribe,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: preferenceKeys.all }),
    onError: () => undefined,
  });
}
