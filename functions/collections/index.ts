/**
 * The collections domain's public module: its use cases and types, the repo factory items reads
 * collections with, and the transaction piece items joins (collections.tx.ts). Collections never
 * imports items (the items of a collection page and the upload claim arrive as injected ports).
 */
export {
  countCollectionItems,
  createCollection,
  findCollections,
  getCollection,
  getOwnedCollection,
  toCollection,
  type CollectionRecord,
  type CollectionsDeps,
} from './collections';
export { createCollectionsRepo, type UploadClaimPieces } from './collections.repo';
export { itemsCountUpdate } from './collections.tx';
