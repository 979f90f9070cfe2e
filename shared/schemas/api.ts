import * as z from 'zod';
import type { ZodType } from 'zod';
import { healthSchema, publicConfigSchema } from './system';
import {
  followBodySchema,
  followResultSchema,
  isFollowerBodySchema,
  isFollowerResultSchema,
  isFollowingBodySchema,
  isFollowingResultSchema,
} from './follows';
import {
  addressBodySchema,
  addressListSchema,
  addressPathSchema,
  addressSchema,
  deletedAddressSchema,
  userPathSchema,
} from './addresses';
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
} from './profiles';
import { adminUserPathSchema, blockStateSchema, loggedOutSchema, sessionSchema } from './sessions';
import { PRODUCT_TYPES } from '../switches';
import {
  abandonedCreationSchema,
  createItemBodySchema,
  copiesPageSchema,
  copiesQuerySchema,
  creationProgressSchema,
  fileLinkSchema,
  historyPathSchema,
  historySchema,
  itemDetailSchema,
  itemPageSchema,
  itemPathSchema,
  itemsUserPathSchema,
  myProductsBodySchema,
  publicProductsBodySchema,
  switchVisibilityBodySchema,
  uploadConfirmBodySchema,
  uploadedSchema,
  uploadRequestSchema,
  uploadTicketSchema,
  userLimitsSchema,
  visibilitySchema,
} from './items';
import {
  collectionListSchema,
  collectionPageQuerySchema,
  collectionPageSchema,
  collectionPathSchema,
  collectionSchema,
  createCollectionBodySchema,
} from './items';
import {
  availabilitySchema,
  checkEmailPathSchema,
  checkMobilePathSchema,
  checkNickPathSchema,
  passwordEmailPathSchema,
  passwordResetBodySchema,
  passwordResetDoneSchema,
  passwordResetRequestedSchema,
  registerBodySchema,
  registeredSchema,
} from './accounts';

/**
 * Request and response schemas of every call, keyed by the route key of functions/routes.ts
 * ("METHOD /path"). GET /api/openapi.json is generated from this map; a test fails when a route
 * has no entry, so the document cannot fall behind the route table.
 */
export interface CallSchemas {
  summary: string;
  tags: string[];
  path?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** Schema of `data` in the 2xx answer. */
  response: ZodType;
  responseStatus?: number;
  /** The answer is the document itself, not `{ data }`. */
  unwrapped?: boolean;
}

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    requestId: z.string(),
  }),
});

export const apiSchemas: Record<string, CallSchemas> = {
  'GET /api/health': { summary: 'Liveness of the API', tags: ['system'], response: healthSchema },
  'GET /api/config': {
    summary: 'Public feature switches and constants the web needs',
    tags: ['system'],
    response: publicConfigSchema,
  },
  'GET /api/openapi.json': {
    summary: 'This document',
    tags: ['system'],
    unwrapped: true,
    response: z.record(z.string(), z.unknown()),
  },
  'GET /api/users/sellers': {
    summary: 'Sellers directory, by followers_counter descending (spec 001 §7 users/sellers)',
    tags: ['profiles'],
    query: listSellersQuerySchema,
    response: sellerPageSchema,
  },
  'POST /api/users/register': {
    summary:
      'Sign-up (spec 001 §7 users/register): nick, e-mail and phone unique (409 names the taken fields); optional Idempotency-Key header',
    tags: ['accounts'],
    body: registerBodySchema,
    response: registeredSchema,
    responseStatus: 201,
  },
  'GET /api/users/check-nickname/{value}': {
    summary: 'Is this nick free? (spec 001 §7 users/check-nickname)',
    tags: ['accounts'],
    path: checkNickPathSchema,
    response: availabilitySchema,
  },
  'POST /api/password/email/{email}': {
    summary:
      'Password recovery request (spec 001 §7 GET password/email/{email}, a POST here): the same answer whether or not the e-mail has an account; e-mails a single-use link valid 1 hour; 5 per e-mail per hour (429); 404 while passwordLogin is off',
    tags: ['accounts'],
    path: passwordEmailPathSchema,
    response: passwordResetRequestedSchema,
  },
  'POST /api/password/reset': {
    summary:
      'Password reset (spec 001 §7 password/reset): consumes the token once, sets the password, ends every session; 400 password.errors.token_invalid; 404 while passwordLogin is off',
    tags: ['accounts'],
    body: passwordResetBodySchema,
    response: passwordResetDoneSchema,
  },
  'GET /api/users/check-email/{value}': {
    summary: 'Is this e-mail free? (spec 001 §7 users/check-email)',
    tags: ['accounts'],
    path: checkEmailPathSchema,
    response: availabilitySchema,
  },
  'GET /api/users/check-mobile/{value}': {
    summary:
      'Is this phone free? Spaces, dashes, brackets, # and x are stripped first (spec 001 §7 users/check-mobile)',
    tags: ['accounts'],
    path: checkMobilePathSchema,
    response: availabilitySchema,
  },
  'POST /api/rels/follow': {
    summary:
      'Follow a user (spec 001 §7 rels/follow): followers_counter + 1 in the same transaction; a second follow changes nothing; 409 follows.errors.self, 404 users.errors.not_found',
    tags: ['follows'],
    body: followBodySchema,
    response: followResultSchema,
  },
  'POST /api/rels/unfollow': {
    summary:
      'Unfollow a user (spec 001 §7 rels/unfollow): followers_counter - 1 (never below 0) in the same transaction; a second unfollow changes nothing',
    tags: ['follows'],
    body: followBodySchema,
    response: followResultSchema,
  },
  'POST /api/rels/check/is-following': {
    summary: 'Does the caller follow `followed`? (spec 001 §7 rels/check/is-following)',
    tags: ['follows'],
    body: isFollowingBodySchema,
    response: isFollowingResultSchema,
  },
  'POST /api/rels/check/is-follower': {
    summary: 'Does `follower` follow the caller? (spec 001 §7 rels/check/is-follower)',
    tags: ['follows'],
    body: isFollowerBodySchema,
    response: isFollowerResultSchema,
  },
  'GET /api/users/{id}/addresses': {
    summary: "The caller's addresses, default first (at most 20); {id} must be the caller (403)",
    tags: ['addresses'],
    path: userPathSchema,
    response: addressListSchema,
  },
  'POST /api/users/{id}/addaddress': {
    summary:
      'Add an address (spec 001 §7 users/{id}/addaddress); the first is the default; at most 20 (400 addresses.errors.limit); {id} must be the caller (403)',
    tags: ['addresses'],
    path: userPathSchema,
    body: addressBodySchema,
    response: addressSchema,
    responseStatus: 201,
  },
  'PUT /api/users/{id}/updateaddress/{addressId}': {
    summary:
      'Replace an address (spec 001 §7 users/{id}/updateaddress); default true moves the default; 404 addresses.errors.not_found',
    tags: ['addresses'],
    path: addressPathSchema,
    body: addressBodySchema,
    response: addressSchema,
  },
  'DELETE /api/users/{id}/deleteaddress/{addressId}': {
    summary:
      'Delete an address (spec 001 §7 users/{id}/deleteaddress); deleting the default makes the most recent one left the default',
    tags: ['addresses'],
    path: addressPathSchema,
    response: deletedAddressSchema,
  },
  'GET /api/session': {
    summary:
      "The caller (spec 001 session check); like every user/admin call, 403 login.errors.403 for a blocked account and 401 for a token signed in before the user's last logout or block",
    tags: ['sessions'],
    response: sessionSchema,
  },
  'POST /api/session/logout': {
    summary:
      'Logout: every session of the caller ends (sessions_revoked_at = now; Cognito AdminUserGlobalSignOut revokes the refresh tokens); the same access token then answers 401. Idempotent',
    tags: ['sessions'],
    response: loggedOutSchema,
  },
  'POST /api/admin/users/{userId}/block': {
    summary:
      'Admins: block a user (403 on login and on every call; AdminDisableUser + AdminUserGlobalSignOut); 409 admin.errors.self_block, 404 users.errors.not_found',
    tags: ['admin'],
    path: adminUserPathSchema,
    response: blockStateSchema,
  },
  'POST /api/admin/users/{userId}/unblock': {
    summary: 'Admins: unblock a user (AdminEnableUser); 404 users.errors.not_found',
    tags: ['admin'],
    path: adminUserPathSchema,
    response: blockStateSchema,
  },
  'GET /api/users/get-by-nickname/{nick}': {
    summary:
      'Public profile by nick (spec 001 §7 users/get-by-nickname); 404 users.errors.not_found for an unknown nick',
    tags: ['profiles'],
    path: nickPathSchema,
    response: publicProfileSchema,
  },
  'PUT /api/users/{id}': {
    summary:
      'Edit the profile (spec 001 §7 PUT users/{id}, §2, §5): fields by user type (others 400 forms.validation.user_type), video link saved as an embed URL (else 400 forms.validation.link), social links outside LinkedIn/Twitter/Instagram/Facebook/Medium dropped; {id} must be the caller (403)',
    tags: ['profiles'],
    path: profileUserPathSchema,
    body: updateProfileSchema,
    response: publicProfileSchema,
  },
  'GET /api/users/{id}/user-profile': {
    summary:
      "The caller's own profile with e-mail and phone (spec 001 §7 users/{id}/user-profile); {id} must be the caller (403)",
    tags: ['profiles'],
    path: profileUserPathSchema,
    response: privateProfileSchema,
  },
  'POST /api/users/{id}/images/upload': {
    summary:
      'A presigned POST for a profile image (replaces auth/profile-image, auth/profile-header-image): avatar ≤ 8 MB, cover ≤ 2 MB (companies, else 403); png, jpeg or bmp (400 forms.validation.image.size / .type); expires in 5 minutes',
    tags: ['profiles'],
    path: profileUserPathSchema,
    body: imageUploadBodySchema,
    response: presignedUploadSchema,
  },
  'POST /api/users/{id}/images': {
    summary:
      'Apply an uploaded profile image: real type by magic bytes and size checked (else deleted, 400 forms.validation.image.type / .size), re-encoded to WebP (avatar 400 px + 96 px thumbnail, cover ≤ 1500 px wide), previous images deleted',
    tags: ['profiles'],
    path: profileUserPathSchema,
    body: imageConfirmBodySchema,
    response: publicProfileSchema,
  },
  'POST /api/users/{id}/store-token-images': {
    summary:
      'A presigned POST for an item image (≤ 8 MB; png, jpeg, webp, bmp, gif; 400 forms.validation.image.size / .type) or the attached file (≤ 20 MB, any type; 400 forms.validation.too_big); the policy pins size and Content-Type; expires in 5 minutes; {id} must be the caller (403). Replaces the multipart store-token-images',
    tags: ['items'],
    path: itemsUserPathSchema,
    body: uploadRequestSchema,
    response: uploadTicketSchema,
  },
  'POST /api/users/{id}/store-token-images/confirm': {
    summary:
      'Confirm an upload: images checked by magic bytes (else deleted, 400 forms.validation.image.type), re-encoded to WebP (≤ 1600 px and a 400 px thumbnail), original deleted; files recorded with size and type. The upload is usable by token/create for 24 h',
    tags: ['items'],
    path: itemsUserPathSchema,
    body: uploadConfirmBodySchema,
    response: uploadedSchema,
  },
  'POST /api/users/{id}/token/create': {
    summary:
      'Create an item with N numbered copies (spec 000 §5); header Idempotency-Key required: a retry with the same key and body resumes and converges, another body 409 idempotency.key_reused; 403 market.create_product.errors.limit; 503 market.create_product.errors.chunks / .store (retry resumes). Progress also live as `item.creation`',
    tags: ['items'],
    path: itemsUserPathSchema,
    body: createItemBodySchema({ mintableTypes: [...PRODUCT_TYPES] }),
    response: creationProgressSchema,
  },
  'DELETE /api/users/{id}/token/create/{itemId}': {
    summary:
      'Abandon a creation that is not done: copies, history and header deleted, limits and uploads released; 404 unknown or not the caller’s; 409 market.create_product.errors.done',
    tags: ['items'],
    path: itemPathSchema,
    response: abandonedCreationSchema,
  },
  'GET /api/users/{id}/get-user-limits': {
    summary:
      "The caller's creator limits (spec 001 §3): limitCapacity, overlay (file bytes), firestore (image bytes), mints used/limit, reached",
    tags: ['items'],
    path: itemsUserPathSchema,
    response: userLimitsSchema,
  },
  'POST /api/users/{id}/token/getmyproducts': {
    summary:
      "The caller's holdings (tokenType items | tickets) or creations (onlyMint or tokenType creations), newest first; `last` is the cursor",
    tags: ['items'],
    path: itemsUserPathSchema,
    body: myProductsBodySchema,
    response: itemPageSchema,
  },
  'POST /api/users/{id}/token/getpublicproducts': {
    summary:
      "Public: the visible holdings of sourceUserNick, newest first; {id} is not used ('-' for guests); 404 users.errors.not_found",
    tags: ['items'],
    path: itemsUserPathSchema,
    body: publicProductsBodySchema,
    response: itemPageSchema,
  },
  'POST /api/users/{id}/token/getproductbyid/{itemId}': {
    summary:
      'Public: an item with its first 50 copies; 404 until its creation is done; can_download for its creator or a holder (optional bearer token)',
    tags: ['items'],
    path: itemPathSchema,
    response: itemDetailSchema,
  },
  'GET /api/users/{id}/token/{itemId}/copies': {
    summary: 'Public: copies of an item in serial order, 50 per page',
    tags: ['items'],
    path: itemPathSchema,
    query: copiesQuerySchema,
    response: copiesPageSchema,
  },
  'GET /api/users/{id}/token/gethistoric/{nftuniqueid}': {
    summary:
      "Public: a copy's provenance, oldest first, verified against the copy's head hash (`verified`)",
    tags: ['items'],
    path: historyPathSchema,
    response: historySchema,
  },
  'POST /api/users/{id}/token/switch-visibility': {
    summary:
      "Show or hide a holding on the caller's public profile (getpublicproducts); 404 when the caller holds no copy",
    tags: ['items'],
    path: itemsUserPathSchema,
    body: switchVisibilityBodySchema,
    response: visibilitySchema,
  },
  'GET /api/users/{id}/token/{itemId}/file': {
    summary:
      'The attached file: a 5-minute presigned GET for its creator or a holder; others 403 forbidden',
    tags: ['items'],
    path: itemPathSchema,
    response: fileLinkSchema,
  },
  'POST /api/users/{id}/token/createcollection': {
    summary:
      'Create a collection (spec 000 §7 token/createcollection): image = a confirmed image upload of the caller (store-token-images + confirm), claimed; 409 market.list.errors.collection_exists when the caller already has this title (any case); 400 market.create_product.errors.image_upload on collection.image for a missing, used or foreign upload; {id} must be the caller (403)',
    tags: ['collections'],
    path: userPathSchema,
    body: createCollectionBodySchema,
    response: collectionSchema,
    responseStatus: 201,
  },
  'GET /api/users/{id}/token/findcollections': {
    summary:
      "The caller's collections, newest first (spec 000 §7 token/findcollections); guests 401 (docs/api.md); {id} must be the caller (403)",
    tags: ['collections'],
    path: userPathSchema,
    response: collectionListSchema,
  },
  'GET /api/users/{id}/token/getcollection/{collectionId}': {
    summary:
      'Public: a collection and its items, newest first, 50 per page (?cursor=); {id} may be any id or -; 404 market.collection.errors.not_found',
    tags: ['collections'],
    path: collectionPathSchema,
    query: collectionPageQuerySchema,
    response: collectionPageSchema,
  },
  'ANY /api/{proxy+}': {
    summary: 'Any other path under /api: 404 not_found',
    tags: ['system'],
    response: z.never(),
    responseStatus: 404,
  },
};
