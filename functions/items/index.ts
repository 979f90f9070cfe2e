/**
 * The items domain's public module: its queries other domains show (a collection's items), the
 * repo factory, and the transaction pieces other domains join (items.tx.ts: the upload claim).
 */
export { getPublicProducts, listCollectionItems } from './queries';
export { toSummary, type StoredSummary } from './items';
export { createItemsRepo, readClaimableImageUpload, type ItemsRepo } from './items.repo';
export { claimImageUploadUpdate } from './items.tx';
export { uploadKey } from './items.keys';
export {
  allCopies,
  heldSerials,
  listableItem,
  lockPack,
  ownedCopies,
  unlockPack,
  type CopiesRepo,
  type OwnedCopies,
} from './copies';
export { imageUrls, type CopyRecord, type ItemRecord, type StoredImage } from './items';
