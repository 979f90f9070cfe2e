import { useQuery } from '@tanstack/react-query';
import type { PrivateProfile } from '@shared/schemas/profiles';
import { apiGet } from './api';

/**
 * The signed-in user's own profile (GET /api/users/{id}/user-profile: the public profile plus
 * e-mail and phone). It lives here because the shell needs it across features (account menu
 * labels, the permission guard, the settings page); its key is the profiles feature's
 * `profileKeys.own(id)`, so the profile editor's invalidation refreshes it too.
 */
export const ownProfileQueryKey = (id: string) => ['profiles', 'own', id] as const;

export function fetchOwnProfile(id: string, signal?: AbortSignal): Promise<PrivateProfile> {
  return apiGet(`/users/${encodeURIComponent(id)}/user-profile`, {
    // Loaded with the call: the shell (account menu, permission guard) does not carry zod.
    schema: () => import('@shared/schemas/profiles').then((module) => module.privateProfileSchema),
    signal,
  });
}

/** The own profile of `id` (null: not logged in, nothing is fetched). */
export function useOwnProfile(id: string | null) {
  return useQuery({
    queryKey: ownProfileQueryKey(id ?? ''),
    queryFn: ({ signal }) => fetchOwnProfile(id ?? '', signal),
    enabled: id !== null,
    staleTime: 60_000,
  });
}
