import { route } from '../core/route';
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
} from '../../shared/schemas/accounts';
import {
  adminUserPathSchema,
  blockStateSchema,
  loggedOutSchema,
  sessionSchema,
} from '../../shared/schemas/sessions';

/**
 * The accounts domain's HTTP calls: THE one list of them (functions/core/route.ts). functions/routes.ts
 * composes every domain's list; OpenAPI is generated from these declarations; each handler passes
 * its declaration to httpHandler.
 */
export const accountsRoutes = {
  register: route({
    method: 'POST',
    path: '/api/users/register',
    handler: 'accounts/handlers/register',
    auth: 'public',
    group: 'accounts',
    summary:
      'Sign-up (spec 001 §7 users/register): nick, e-mail and phone unique (409 names the taken fields); optional Idempotency-Key header',
    tags: ['accounts'],
    request: { body: registerBodySchema },
    response: registeredSchema,
    status: 201,
    idempotency: 'optional',
  }),
  checkNickname: route({
    method: 'GET',
    path: '/api/users/check-nickname/{value}',
    handler: 'accounts/handlers/check-nickname',
    auth: 'public',
    group: 'accounts',
    summary: 'Is this nick free? (spec 001 §7 users/check-nickname)',
    tags: ['accounts'],
    request: { path: checkNickPathSchema },
    response: availabilitySchema,
  }),
  checkEmail: route({
    method: 'GET',
    path: '/api/users/check-email/{value}',
    handler: 'accounts/handlers/check-email',
    auth: 'public',
    group: 'accounts',
    summary: 'Is this e-mail free? (spec 001 §7 users/check-email)',
    tags: ['accounts'],
    request: { path: checkEmailPathSchema },
    response: availabilitySchema,
  }),
  checkMobile: route({
    method: 'GET',
    path: '/api/users/check-mobile/{value}',
    handler: 'accounts/handlers/check-mobile',
    auth: 'public',
    group: 'accounts',
    summary:
      'Is this phone free? Spaces, dashes, brackets, # and x are stripped first (spec 001 §7 users/check-mobile)',
    tags: ['accounts'],
    request: { path: checkMobilePathSchema },
    response: availabilitySchema,
  }),
  // Password recovery (spec 001 §7 password/*), 404 while the passwordLogin switch is off.
  requestPasswordReset: route({
    method: 'POST',
    path: '/api/password/email/{email}',
    handler: 'accounts/handlers/request-password-reset',
    auth: 'public',
    group: 'accounts',
    summary:
      'Password recovery request (spec 001 §7 GET password/email/{email}, a POST here): the same answer whether or not the e-mail has an account; e-mails a single-use link valid 1 hour; 5 per e-mail per hour (429); 404 while passwordLogin is off',
    tags: ['accounts'],
    request: { path: passwordEmailPathSchema },
    response: passwordResetRequestedSchema,
  }),
  resetPassword: route({
    method: 'POST',
    path: '/api/password/reset',
    handler: 'accounts/handlers/reset-password',
    auth: 'public',
    group: 'accounts',
    // Ends sessions: closes the user's live-channel connections (functions/realtime).
    live: true,
    summary:
      'Password reset (spec 001 §7 password/reset): consumes the token once, sets the password, ends every session; 400 password.errors.token_invalid; 404 while passwordLogin is off',
    tags: ['accounts'],
    request: { body: passwordResetBodySchema },
    response: passwordResetDoneSchema,
  }),
  // Sessions (issue 3 item 4) and admins' block/unblock (item 11): functions/sessions.
  getSession: route({
    method: 'GET',
    path: '/api/session',
    handler: 'accounts/handlers/get-session',
    auth: 'user',
    group: 'accounts',
    summary:
      "The caller (spec 001 session check); like every user/admin call, 403 login.errors.403 for a blocked account and 401 for a token signed in before the user's last logout or block",
    tags: ['sessions'],
    response: sessionSchema,
  }),
  logout: route({
    method: 'POST',
    path: '/api/session/logout',
    handler: 'accounts/handlers/logout',
    auth: 'user',
    group: 'accounts',
    // Ends sessions: closes the user's live-channel connections (functions/realtime).
    live: true,
    summary:
      'Logout: every session of the caller ends (sessions_revoked_at = now; Cognito AdminUserGlobalSignOut revokes the refresh tokens); the same access token then answers 401. Idempotent',
    tags: ['sessions'],
    response: loggedOutSchema,
  }),
  blockUser: route({
    method: 'POST',
    path: '/api/admin/users/{userId}/block',
    handler: 'accounts/handlers/block-user',
    auth: 'admin',
    group: 'accounts',
    // Ends sessions: closes the user's live-channel connections (functions/realtime).
    live: true,
    summary:
      'Admins: block a user (403 on login and on every call; AdminDisableUser + AdminUserGlobalSignOut); 409 admin.errors.self_block, 404 users.errors.not_found',
    tags: ['admin'],
    request: { path: adminUserPathSchema },
    response: blockStateSchema,
  }),
  unblockUser: route({
    method: 'POST',
    path: '/api/admin/users/{userId}/unblock',
    handler: 'accounts/handlers/unblock-user',
    auth: 'admin',
    group: 'accounts',
    summary: 'Admins: unblock a user (AdminEnableUser); 404 users.errors.not_found',
    tags: ['admin'],
    request: { path: adminUserPathSchema },
    response: blockStateSchema,
  }),
} as const;
