/**
 * The route table: the one list of calls. CDK makes one Lambda and one HTTP API route per entry;
 * the local HTTP gateway answers the same entries with API Gateway v2 events. A parity test checks
 * that both runtimes serve exactly these.
 *
 * `handler` is the module path under `functions/` without extension; the module exports `handler`.
 * `auth`: 'public' needs no token; 'user' needs a valid access token; 'admin' a token of an admin.
 * `group` chooses the CloudFormation stack the function lives in (stacks are split by domain group
 * to stay under 500 resources each).
 */
/** 'ANY' matches every method (API Gateway semantics); used only by the catch-all below. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
export type AuthLevel = 'public' | 'user' | 'admin';
export type StackGroup = 'core' | 'accounts' | 'market' | 'orders' | 'social';

export interface HttpRoute {
  method: HttpMethod;
  /** API Gateway path syntax: `/api/users/{nick}`. Always starts with `/api/`. */
  path: string;
  handler: string;
  auth: AuthLevel;
  group: StackGroup;
  /**
   * What the function may touch, where the method's default (GET reads the table; other methods
   * write it and the buckets) is not enough. CDK grants exactly this.
   */
  access?: {
    table?: 'read' | 'write';
    images?: 'read' | 'write' | 'readwrite';
    files?: 'read' | 'write' | 'readwrite';
  };
  /** Native modules the handler loads at run time (kept out of the bundle, shipped beside it). */
  native?: readonly string[];
  /** Memory in MB when the default (512) is not enough, e.g. image processing. */
  memoryMb?: number;
  /**
   * The handler publishes to the live channel (functions/realtime publishToUser/Topic): CDK gives
   * it the WebSocket connections endpoint and `execute-api:ManageConnections`.
   */
  live?: boolean;
}

export interface WebSocketRoute {
  /** `$connect`, `$disconnect`, `$default` or a custom route key matched on the `action` field. */
  routeKey: string;
  handler: string;
}

export const httpRoutes: readonly HttpRoute[] = [
  {
    method: 'GET',
    path: '/api/health',
    handler: 'system/handlers/get-health',
    auth: 'public',
    group: 'core',
  },
  {
    method: 'GET',
    path: '/api/config',
    handler: 'system/handlers/get-config',
    auth: 'public',
    group: 'core',
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'system/handlers/get-openapi',
    auth: 'public',
    group: 'core',
  },
  {
    method: 'GET',
    path: '/api/users/sellers',
    handler: 'profiles/handlers/list-sellers',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/users/register',
    handler: 'accounts/handlers/register',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'GET',
    path: '/api/users/check-nickname/{value}',
    handler: 'accounts/handlers/check-nickname',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'GET',
    path: '/api/users/check-email/{value}',
    handler: 'accounts/handlers/check-email',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'GET',
    path: '/api/users/check-mobile/{value}',
    handler: 'accounts/handlers/check-mobile',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/rels/follow',
    handler: 'follows/handlers/follow',
    auth: 'user',
    group: 'social',
  },
  {
    method: 'POST',
    path: '/api/rels/unfollow',
    handler: 'follows/handlers/unfollow',
    auth: 'user',
    group: 'social',
  },
  {
    method: 'POST',
    path: '/api/rels/check/is-following',
    handler: 'follows/handlers/is-following',
    auth: 'user',
    group: 'social',
  },
  {
    method: 'POST',
    path: '/api/rels/check/is-follower',
    handler: 'follows/handlers/is-follower',
    auth: 'user',
    group: 'social',
  },
  {
    method: 'GET',
    path: '/api/users/{id}/addresses',
    handler: 'addresses/handlers/list-addresses',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/users/{id}/addaddress',
    handler: 'addresses/handlers/add-address',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'PUT',
    path: '/api/users/{id}/updateaddress/{addressId}',
    handler: 'addresses/handlers/update-address',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'DELETE',
    path: '/api/users/{id}/deleteaddress/{addressId}',
    handler: 'addresses/handlers/delete-address',
    auth: 'user',
    group: 'accounts',
  },
  // Password recovery (spec 001 §7 password/*), 404 while the passwordLogin switch is off.
  {
    method: 'POST',
    path: '/api/password/email/{email}',
    handler: 'accounts/handlers/request-password-reset',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/password/reset',
    handler: 'accounts/handlers/reset-password',
    auth: 'public',
    group: 'accounts',
  },
  // Sessions (issue 3 item 4) and admins' block/unblock (item 11): functions/sessions.
  {
    method: 'GET',
    path: '/api/session',
    handler: 'accounts/handlers/get-session',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/session/logout',
    handler: 'accounts/handlers/logout',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/admin/users/{userId}/block',
    handler: 'accounts/handlers/block-user',
    auth: 'admin',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/admin/users/{userId}/unblock',
    handler: 'accounts/handlers/unblock-user',
    auth: 'admin',
    group: 'accounts',
  },
  // Profiles (issue 3 item 6): public profile, edit profile, private view, profile images.
  {
    method: 'GET',
    path: '/api/users/get-by-nickname/{nick}',
    handler: 'profiles/handlers/get-by-nickname',
    auth: 'public',
    group: 'accounts',
  },
  {
    method: 'PUT',
    path: '/api/users/{id}',
    handler: 'profiles/handlers/update-profile',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'GET',
    path: '/api/users/{id}/user-profile',
    handler: 'profiles/handlers/get-user-profile',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/users/{id}/images/upload',
    handler: 'profiles/handlers/create-image-upload',
    auth: 'user',
    group: 'accounts',
  },
  {
    method: 'POST',
    path: '/api/users/{id}/images',
    handler: 'profiles/handlers/confirm-image',
    auth: 'user',
    group: 'accounts',
    // Reads the upload, writes the re-encoded images, deletes both; sharp decodes and encodes.
    access: { table: 'write', images: 'readwrite' },
    native: ['sharp'],
    memoryMb: 1024,
  },
  // Items (issue 4; spec 000 §5, §7 token/*, store-token-images, get-user-limits): functions/items.
  {
    method: 'POST',
    path: '/api/users/{id}/store-token-images',
    handler: 'items/handlers/store-token-images',
    auth: 'user',
    group: 'market',
    access: { table: 'write', images: 'write', files: 'write' },
  },
  {
    method: 'POST',
    path: '/api/users/{id}/store-token-images/confirm',
    handler: 'items/handlers/confirm-token-image',
    auth: 'user',
    group: 'market',
    // Reads the upload, writes the re-encoded images, deletes the original; sharp encodes.
    access: { table: 'write', images: 'readwrite', files: 'read' },
    native: ['sharp'],
    memoryMb: 1024,
  },
  {
    method: 'POST',
    path: '/api/users/{id}/token/create',
    handler: 'items/handlers/create-token',
    auth: 'user',
    group: 'market',
    access: { table: 'write' },
    // Creation progress (item.creation) goes to the creator's connections.
    live: true,
  },
  {
    method: 'DELETE',
    path: '/api/users/{id}/token/create/{itemId}',
    handler: 'items/handlers/abandon-token',
    auth: 'user',
    group: 'market',
    access: { table: 'write' },
  },
  {
    method: 'GET',
    path: '/api/users/{id}/get-user-limits',
    handler: 'items/handlers/get-user-limits',
    auth: 'user',
    group: 'market',
  },
  {
    method: 'POST',
    path: '/api/users/{id}/token/getmyproducts',
    handler: 'items/handlers/get-my-products',
    auth: 'user',
    group: 'market',
    access: { table: 'read' },
  },
  {
    method: 'POST',
    path: '/api/users/{id}/token/getpublicproducts',
    handler: 'items/handlers/get-public-products',
    auth: 'public',
    group: 'market',
    access: { table: 'read' },
  },
  {
    method: 'POST',
    path: '/api/users/{id}/token/getproductbyid/{itemId}',
    handler: 'items/handlers/get-product-by-id',
    auth: 'public',
    group: 'market',
    access: { table: 'read' },
  },
  {
    method: 'GET',
    path: '/api/users/{id}/token/{itemId}/copies',
    handler: 'items/handlers/list-copies',
    auth: 'public',
    group: 'market',
  },
  {
    method: 'GET',
    path: '/api/users/{id}/token/gethistoric/{nftuniqueid}',
    handler: 'items/handlers/get-historic',
    auth: 'public',
    group: 'market',
  },
  {
    method: 'POST',
    path: '/api/users/{id}/token/switch-visibility',
    handler: 'items/handlers/switch-visibility',
    auth: 'user',
    group: 'market',
    access: { table: 'write' },
  },
  {
    method: 'GET',
    path: '/api/users/{id}/token/{itemId}/file',
    handler: 'items/handlers/get-file',
    auth: 'user',
    group: 'market',
    access: { table: 'read', files: 'read' },
  },
  // Collections (spec 000 §3, §5, §7 token/createcollection, findcollections, getcollection).
  {
    method: 'POST',
    path: '/api/users/{id}/token/createcollection',
    handler: 'collections/handlers/create-collection',
    auth: 'user',
    group: 'market',
  },
  {
    method: 'GET',
    path: '/api/users/{id}/token/findcollections',
    handler: 'collections/handlers/find-collections',
    auth: 'user',
    group: 'market',
  },
  {
    method: 'GET',
    path: '/api/users/{id}/token/getcollection/{collectionId}',
    handler: 'collections/handlers/get-collection',
    auth: 'public',
    group: 'market',
  },
  /**
   * Catch-all: any other /api path answers 404 `not_found` as JSON, in AWS and on the twin alike.
   * API Gateway and the local gateway both prefer every more specific route over a greedy one.
   */
  {
    method: 'ANY',
    path: '/api/{proxy+}',
    handler: 'system/handlers/not-found',
    auth: 'public',
    group: 'core',
  },
];

export const webSocketRoutes: readonly WebSocketRoute[] = [
  { routeKey: '$connect', handler: 'realtime/handlers/connect' },
  { routeKey: '$disconnect', handler: 'realtime/handlers/disconnect' },
  { routeKey: '$default', handler: 'realtime/handlers/default' },
  { routeKey: 'ping', handler: 'realtime/handlers/ping' },
];

/**
 * Handlers run by workflow Task states. An ASL file in infra/workflows names a task by a definition
 * substitution, `"Resource": "${Task_<key>}"`; CDK substitutes the Lambda ARN of
 * `workflowTasks[<key>]`, the local runner invokes the same handler in-process. Product workflows
 * (listing, auction close, booking expiry) arrive with their features.
 */
export const workflowTasks: Readonly<Record<string, { handler: string }>> = {};

/**
 * Cognito user-pool triggers (custom auth: an e-mail pin, then a phone pin; pre-authentication for
 * the password flow). CDK attaches them to
 * the user pool; the twin's local Cognito endpoint runs the same modules in-process.
 */
export const cognitoTriggers = {
  defineAuthChallenge: 'accounts/triggers/define-auth-challenge',
  createAuthChallenge: 'accounts/triggers/create-auth-challenge',
  verifyAuthChallengeResponse: 'accounts/triggers/verify-auth-challenge',
  // Password login (passwordLogin switch): refuses blocked accounts; a no-op while it is off.
  preAuthentication: 'accounts/triggers/pre-authentication',
} as const;

/**
 * The Cognito operations the product calls, and so exactly what the twin's local Cognito endpoint
 * implements (docs/api.md lists them): the web's Amplify Auth client, then our functions.
 */
export const cognitoOperations = {
  amplify: [
    'InitiateAuth',
    'RespondToAuthChallenge',
    'GetTokensFromRefreshToken',
    'GetUser',
    'RevokeToken',
    'GlobalSignOut',
  ],
  functions: [
    'AdminCreateUser',
    'AdminGetUser',
    'AdminUpdateUserAttributes',
    'AdminDisableUser',
    'AdminEnableUser',
    'AdminUserGlobalSignOut',
    'AdminAddUserToGroup',
    'AdminSetUserPassword',
  ],
} as const;

/** Every handler module the bundler must build (HTTP, WebSocket and workflow tasks). */
export function allHandlers(): string[] {
  return [
    ...new Set([
      ...httpRoutes.map((route) => route.handler),
      ...webSocketRoutes.map((route) => route.handler),
      ...Object.values(workflowTasks).map((task) => task.handler),
    ]),
  ].sort();
}
