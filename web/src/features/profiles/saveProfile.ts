import { uploadProfileImage, updateProfile } from './api/profiles';
import type { ImageKind, PublicProfile, UpdateProfileBody } from './schemas';

export type SaveStep = 'avatar' | 'cover' | 'info' | 'done';

export interface SaveProfileInput {
  id: string;
  avatar: File | null;
  cover: File | null;
  body: UpdateProfileBody;
  onStep?: (step: SaveStep) => void;
  /** Called after each image is stored, so a retry does not send it again. */
  onImageSaved?: (kind: ImageKind, profile: PublicProfile) => void;
}

/**
 * The profile save flow (spec 001 §4): (validated form) → upload avatar → upload cover → save
 * video and info → done. The contract takes the video link and the info in one PUT.
 */
export async function saveProfile(input: SaveProfileInput): Promise<PublicProfile> {
  const { id, avatar, cover, body, onStep, onImageSaved } = input;
  if (avatar) {
    onStep?.('avatar');
    onImageSaved?.('avatar', await uploadProfileImage(id, 'avatar', avatar));
  }
  if (cover) {
    onStep?.('cover');
    onImageSaved?.('cover', await uploadProfileImage(id, 'cover', cover));
  }
  onStep?.('info');
  const profile = await updateProfile(id, body);
  onStep?.('done');
  return profile;
}
