/**
 * The items domain's public module: its queries other domains show (a collection's items), the
 * repo factory, and the transaction pieces other domains join (items.tx.ts: the upload claim).
 */
export { getPublicProducts, listCollectionItems } from './queries';
export { summaryOf, toSummary, type HoldingRecord, type StoredSummary } from './items';
export type { ProvenanceRecord } from './provenance';
export { createItemsRepo, readClaimableImageUpload, type ItemsRepo } from './items.repo';
export {
  bookCopyUpdate,
  claimImageUploadUpdate,
  holdingChangePiece,
  refundCopyPieces,
  releaseBookingUpdate,
  returnUnbookedCopyUpdate,
  saleCopyPieces,
  type OwnerChange,
} from './items.tx';
export { uploadKey } from './items.keys';
export {
  allCopies,
  bookableCopies,
  heldSerials,
  listableItem,
  lockPack,
  ownedCopies,
  unlockPack,
  type CopiesRepo,
  type OwnedCopies,
} from './copies';
export { imageUrls, type CopyRecord, type ItemRecord, type StoredImage } from './items';
