import { route } from '../core/route';
import {
  imageConfirmBodySchema,
  imageUploadBodySchema,
  listSellersQuerySchema,
  nickPathSchema,
  presignedUploadSchema,
  privateProfileSchema,
  profileUserPathSchema,
  publicProfileSchema,
  sellerPageSchema,
  updateProfileSchema,
} from '../../shared/schemas/profiles';

/**
 * The profiles domain's HTTP calls: THE one list of them (functions/core/route.ts). functions/routes.ts
 * composes every domain's list; OpenAPI is generated from these declarations; each handler passes
 * its declaration to httpHandler.
 */
export const profilesRoutes = {
  listSellers: route({
    method: 'GET',
    path: '/api/users/sellers',
    handler: 'profiles/handlers/list-sellers',
    auth: 'public',
    group: 'accounts',
    summary: 'Sellers directory, by followers_counter descending (spec 001 §7 users/sellers)',
    tags: ['profiles'],
    request: { query: listSellersQuerySchema },
    response: sellerPageSchema,
  }),
  // Profiles (issue 3 item 6): public profile, edit profile, private view, profile images.
  getByNickname: route({
    method: 'GET',
    path: '/api/users/get-by-nickname/{nick}',
    handler: 'profiles/handlers/get-by-nickname',
    auth: 'public',
    group: 'accounts',
    summary:
      'Public profile by nick (spec 001 §7 users/get-by-nickname); 404 users.errors.not_found for an unknown nick',
    tags: ['profiles'],
    request: { path: nickPathSchema },
    response: publicProfileSchema,
  }),
  updateProfile: route({
    method: 'PUT',
    path: '/api/users/{id}',
    handler: 'profiles/handlers/update-profile',
    auth: 'user',
    group: 'accounts',
    summary:
      'Edit the profile (spec 001 §7 PUT users/{id}, §2, §5): fields by user type (others 400 forms.validation.user_type), video link saved as an embed URL (else 400 forms.validation.link), social links outside LinkedIn/Twitter/Instagram/Facebook/Medium dropped; {id} must be the caller (403)',
    tags: ['profiles'],
    request: { path: profileUserPathSchema, body: updateProfileSchema },
    response: publicProfileSchema,
    owner: 'id',
  }),
  getUserProfile: route({
    method: 'GET',
    path: '/api/users/{id}/user-profile',
    handler: 'profiles/handlers/get-user-profile',
    auth: 'user',
    group: 'accounts',
    summary:
      "The caller's own profile with e-mail and phone (spec 001 §7 users/{id}/user-profile); {id} must be the caller (403)",
    tags: ['profiles'],
    request: { path: profileUserPathSchema },
    response: privateProfileSchema,
    owner: 'id',
  }),
  createImageUpload: route({
    method: 'POST',
    path: '/api/users/{id}/images/upload',
    handler: 'profiles/handlers/create-image-upload',
    auth: 'user',
    group: 'accounts',
    summary:
      'A presigned POST for a profile image (replaces auth/profile-image, auth/profile-header-image): avatar ≤ 8 MB, cover ≤ 2 MB (companies, else 403); png, jpeg or bmp (400 forms.validation.image.size / .type); expires in 5 minutes',
    tags: ['profiles'],
    request: { path: profileUserPathSchema, body: imageUploadBodySchema },
    response: presignedUploadSchema,
    owner: 'id',
  }),
  confirmImage: route({
    method: 'POST',
    path: '/api/users/{id}/images',
    handler: 'profiles/handlers/confirm-image',
    auth: 'user',
    group: 'accounts',
    // Reads the upload, writes the re-encoded images, deletes both; sharp decodes and encodes.
    access: { table: 'write', images: 'readwrite' },
    native: ['sharp'],
    memoryMb: 1024,
    summary:
      'Apply an uploaded profile image: real type by magic bytes and size checked (else deleted, 400 forms.validation.image.type / .size), re-encoded to WebP (avatar 400 px + 96 px thumbnail, cover ≤ 1500 px wide), previous images deleted',
    tags: ['profiles'],
    request: { path: profileUserPathSchema, body: imageConfirmBodySchema },
    response: publicProfileSchema,
    owner: 'id',
  }),
} as const;
