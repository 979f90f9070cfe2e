import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { fetchProfileByNick, follow, isFollowing, profileKeys, unfollow } from '../api/profiles';
import type { PublicProfile } from '../schemas';

/** The public profile of `nick`; a 404 is final (no retry). */
export function useProfile(nick: string) {
  return useQuery({
    queryKey: profileKeys.byNick(nick),
    queryFn: ({ signal }) => fetchProfileByNick(nick, signal),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

/** The signed-in user's own profile (for the edit modal); shared with the shell through lib. */
export { useOwnProfile } from '../../../lib/ownProfile';

/** Whether the signed-in user follows `uid` (only asked when logged in and not one's own). */
export function useIsFollowing(uid: string, enabled: boolean) {
  return useQuery({
    queryKey: profileKeys.following(uid),
    queryFn: ({ signal }) => isFollowing(uid, signal),
    enabled,
  });
}

/** Follows or unfollows, then updates the relation and the profile's counter in the cache. */
export function useFollowMutation(profile: PublicProfile) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (next: boolean) => (next ? follow(profile.id) : unfollow(profile.id)),
    onSuccess: (result) => {
      queryClient.setQueryData(profileKeys.following(profile.id), result.following);
      queryClient.setQueryData<PublicProfile>(profileKeys.byNick(profile.nick), (old) =>
        old ? { ...old, followers_counter: result.followers_counter } : old,
      );
    },
  });
}
