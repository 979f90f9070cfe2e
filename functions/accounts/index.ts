/**
 * The accounts domain's public module: sign-up, login, sessions (the per-call check, logout,
 * block) and the directory of nicks. Other domains import only this file.
 */
export { accountsDirectory, type AccountsDirectory } from './directory';
export {
  createSessionCheck,
  blockUser,
  logout,
  unblockUser,
  type BlockState,
  type LoggedOut,
  type SessionsDeps,
} from './sessions';
export { sessionCheck, sessionsDeps } from './sessions.deps';
export type { AccountStatus } from './accounts.repo';
export type { SessionCheck } from '../core/http';
