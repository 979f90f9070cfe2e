/**
 * Key prefixes in the buckets that more than one part of the system relies on.
 *
 * Browsers upload images (avatars, covers, item and collection images) under UPLOADS_PREFIX in
 * the images bucket; the confirm call re-encodes an upload elsewhere and deletes it, and the
 * bucket's lifecycle rule (infra DataStack) expires the ones never confirmed after a day.
 */
export const UPLOADS_PREFIX = 'uploads/';
