/**
 * The profiles domain's public module: profile use cases and types, and the transaction pieces
 * (profiles.tx.ts) accounts and follows join. Other domains import only this file.
 */
export {
  getOwnProfile,
  getProfileByNick,
  toPublicProfile,
  updateProfile,
  type ProfilesDeps,
} from './profiles';
export {
  createProfileStore,
  type ProfileRecord,
  type ProfileStore,
  type SellerStatusStore,
} from './profiles.repo';
export {
  COUNTER_PROJECTION,
  counterReadKey,
  counterStateOf,
  followersCounterUpdate,
  newProfileItem,
  newProfileRecord,
  nextCounter,
  profileItemKey,
  profileVerifiedUpdate,
  type CounterState,
  type NewProfileInput,
  type UpdateIntent,
} from './profiles.tx';
