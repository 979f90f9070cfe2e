import * as z from 'zod';
import { followResultSchema, isFollowingResultSchema } from '@shared/schemas/follows';
import { apiGet, apiPost, apiRequest } from '../../../lib/api';
import { postToStorage } from '../../../lib/storage';
import {
  publicProfileSchema,
  type ImageKind,
  type PublicProfile,
  type UpdateProfileBody,
} from '../schemas';

export const profileKeys = {
  all: ['profiles'] as const,
  byNick: (nick: string) => [...profileKeys.all, 'nick', nick] as const,
  own: (id: string) => [...profileKeys.all, 'own', id] as const,
  following: (id: string) => [...profileKeys.all, 'following', id] as const,
};

const enc = encodeURIComponent;

/** GET /api/users/get-by-nickname/{nick} → { data: PublicProfile } | 404 users.errors.not_found. */
export function fetchProfileByNick(nick: string, signal?: AbortSignal): Promise<PublicProfile> {
  return apiGet(`/users/get-by-nickname/${enc(nick)}`, { schema: publicProfileSchema, signal });
}

/** GET /api/users/{id}/user-profile (own) → { data: PublicProfile & { email, phone } }. */
export { fetchOwnProfile } from '../../../lib/ownProfile';

/** PUT /api/users/{id} → { data: PublicProfile }; 400 with error.fields. */
export function updateProfile(id: string, body: UpdateProfileBody): Promise<PublicProfile> {
  return apiRequest(`/users/${enc(id)}`, { method: 'PUT', body, schema: publicProfileSchema });
}

const presignedPostSchema = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  key: z.string(),
});
export type PresignedPost = z.infer<typeof presignedPostSchema>;

/** POST /api/users/{id}/images/upload { kind, contentType, size } → a presigned POST. */
export function requestImageUpload(id: string, kind: ImageKind, file: File) {
  return apiPost(
    `/users/${enc(id)}/images/upload`,
    { kind, contentType: file.type, size: file.size },
    { schema: presignedPostSchema },
  );
}

/** Sends the file to storage; storage refuses a policy violation (size, type) with 400/403. */
export function uploadToStorage(post: PresignedPost, file: File): Promise<void> {
  return postToStorage(post, file, (status) =>
    status === 400 || status === 403 ? 'upload_refused' : 'unexpected',
  );
}

/** POST /api/users/{id}/images { kind, key } → { data: PublicProfile }. */
export function confirmImage(id: string, kind: ImageKind, key: string): Promise<PublicProfile> {
  return apiPost(`/users/${enc(id)}/images`, { kind, key }, { schema: publicProfileSchema });
}

/** Presigned upload, storage, confirmation: the new profile with the image. */
export async function uploadProfileImage(
  id: string,
  kind: ImageKind,
  file: File,
): Promise<PublicProfile> {
  const post = await requestImageUpload(id, kind, file);
  await uploadToStorage(post, file);
  return confirmImage(id, kind, post.key);
}

/** POST /api/rels/follow { uid } → { data: { following, followers_counter } }. */
export function follow(uid: string) {
  return apiPost('/rels/follow', { uid }, { schema: followResultSchema });
}

/** POST /api/rels/unfollow { uid }. */
export function unfollow(uid: string) {
  return apiPost('/rels/unfollow', { uid }, { schema: followResultSchema });
}

/** POST /api/rels/check/is-following { followed } → { data: { following } }. */
export async function isFollowing(followed: string, signal?: AbortSignal): Promise<boolean> {
  const { following } = await apiPost(
    '/rels/check/is-following',
    { followed },
    { schema: isFollowingResultSchema, signal },
  );
  return following;
}
