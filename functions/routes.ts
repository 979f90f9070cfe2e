import type { RouteDeclaration, StreamTrigger, WebSocketRoute, WorkflowTask } from './core/route';
import { accountsRoutes } from './accounts/accounts.routes';
import { addressesRoutes } from './addresses/addresses.routes';
import { bidsRoutes, bidsStreamTriggers } from './bids/bids.routes';
import { collectionsRoutes } from './collections/collections.routes';
import { followsRoutes } from './follows/follows.routes';
import { itemsRoutes } from './items/items.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { offeringsRoutes } from './offerings/offerings.routes';
import { ordersRoutes } from './orders/orders.routes';
import { pagesRoutes } from './pages/pages.routes';
import { paymentsRoutes, paymentsStreamTriggers } from './payments/payments.routes';
import { profilesRoutes } from './profiles/profiles.routes';
import { systemRoutes } from './system/system.routes';

export type {
  AuthLevel,
  HttpMethod,
  HttpRoute,
  StackGroup,
  StreamTrigger,
  WebSocketRoute,
  WorkflowTask,
} from './core/route';

/**
 * The route table: every domain's declared calls (`functions/<domain>/<domain>.routes.ts`, the one
 * place a call is listed), composed. CDK makes one Lambda and one HTTP API route per entry; the
 * local HTTP gateway answers the same entries with API Gateway v2 events (a parity test checks
 * that both runtimes serve exactly these); GET /api/openapi.json and the call list of docs/api.md
 * are generated from them. A new domain adds its routes file here.
 */
export const httpRoutes: readonly RouteDeclaration[] = [
  systemRoutes,
  profilesRoutes,
  accountsRoutes,
  followsRoutes,
  addressesRoutes,
  itemsRoutes,
  collectionsRoutes,
  pagesRoutes,
  paymentsRoutes,
  notificationsRoutes,
  offeringsRoutes,
  ordersRoutes,
  bidsRoutes,
].flatMap((routes): RouteDeclaration[] => Object.values(routes));

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
export const workflowTasks: Readonly<Record<string, WorkflowTask>> = {
  // follower-fanout: a page of a seller's followers told about a new offering; starts its own
  // continuation execution when the history grows long.
  notifyFollowersPage: {
    handler: 'notifications/handlers/notify-followers-page',
    notify: true,
    workflows: ['follower-fanout'],
  },
  // listing: every step of an offering's listing (reserve, submit, support's decision applied,
  // end, release); the callback steps store their token. It notifies the seller and invitees and
  // starts the follower fan-out of a published offering.
  listingStep: {
    handler: 'offerings/handlers/listing-step',
    notify: true,
    workflows: ['follower-fanout', 'auction-close'],
    callbacks: ['listing'],
  },
  // auction-close: an auction's reminders and close (issue 13): winners' orders made and their
  // saved cards charged off session, substitutes offered, the rest returned. It books copies (the
  // offers' booking-expiry timers), charges, notifies and publishes to the offering's watchers.
  auctionStep: {
    handler: 'bids/handlers/auction-step',
    notify: true,
    stripe: true,
    workflows: ['booking-expiry'],
  },
  // booking-expiry and payout-release: an order's timers (issue 12). At the booking's end an
  // unpaid order expires (its copies released, its Checkout Session expired); 14 days after
  // shipping the payouts go out. Both may refund, transfer and notify.
  orderStep: {
    handler: 'orders/handlers/order-step',
    notify: true,
    stripe: true,
    workflows: ['payout-release'],
  },
};

/**
 * Scheduled jobs (DESIGN §7: "scheduled jobs closing auctions and sending end reminders"): CDK runs
 * each handler on an EventBridge schedule (`rateMinutes`), the twin fires the same handler on its
 * own scheduler at the same rate; a parity test checks both run exactly these. A job's options
 * mean what they mean for a workflow task (CDK grants exactly those).
 */
export interface ScheduledJob extends WorkflowTask {
  /** Every this many minutes. */
  rateMinutes: number;
  /**
   * The stream trigger (`streamTriggers` key) whose function runs this job: the schedule invokes
   * that function, whose handler tells a scheduled event from a stream batch, instead of a function
   * of the job's own. The handler must be the trigger's, and the job takes the trigger's options.
   * A trigger replays its own kept failed batches this way: they name the function they failed in.
   */
  runsOn?: string;
}

export const scheduledJobs: Readonly<Record<string, ScheduledJob>> = {
  // The auction sweeper: lots past their end whose close has not started, or whose close missed
  // its next look (a failed or lost execution), get an auction-close execution that resumes it.
  auctionSweep: {
    handler: 'bids/handlers/auction-sweep',
    rateMinutes: 1,
    workflows: ['auction-close'],
  },
  // The bidEvents batches Lambda gave up on (kept in the failed-batches bucket, with their
  // records) handed to bidEvents again until they succeed (core/failed-batches.ts).
  bidEventsReplay: {
    handler: 'bids/handlers/bid-events',
    rateMinutes: 5,
    runsOn: 'bidEvents',
  },
  // The Stripe events the stripeEvents trigger has not handled a few minutes after they came (a
  // batch given up on, a handler stopped): kept batches replayed and pending events handled.
  stripeEventsReplay: {
    handler: 'payments/handlers/stripe-events',
    rateMinutes: 5,
    runsOn: 'stripeEvents',
  },
  // Reconciliation with Stripe (functions/payments/reconcile.ts): its events and money since the
  // last run against what the app recorded; a missed event is applied, a disagreement kept for
  // support. It may do what any payment event does.
  stripeReconcile: {
    handler: 'payments/handlers/stripe-reconcile',
    rateMinutes: 15,
    stripe: true,
    notify: true,
    workflows: ['payout-release'],
    // Budget: a quarter hour of events and balance transactions, each maybe an order's sale.
    timeoutSeconds: 600,
  },
  // The order sweeper (functions/orders/sweep.ts): orders whose booking ran out or whose payouts
  // are due with no timer to see to it (a failed booking-expiry or payout-release execution), and
  // orders whose last step left money half-moved (a refund, a reversal, a payout, an honour cut
  // short), finished as their own task would. It may refund, transfer, notify and start the
  // payout-release wait.
  orderSweep: {
    handler: 'orders/handlers/order-sweep',
    rateMinutes: 5,
    stripe: true,
    notify: true,
    workflows: ['payout-release'],
    // Budget: up to 100 orders a run, each a few Stripe calls; the run stops starting new ones
    // 15 s before the end (sweep.ts), and the rest wait for the next run.
    timeoutSeconds: 300,
  },
};

/**
 * Handlers run on the table's DynamoDB stream (CDK: a Lambda event source mapping with these
 * settings; the twin: its stream poller, infra/local/streams.ts). A parity test checks both.
 */
export const streamTriggers: Readonly<Record<string, StreamTrigger>> = {
  ...bidsStreamTriggers,
  ...paymentsStreamTriggers,
};

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
      ...Object.values(scheduledJobs).map((job) => job.handler),
      ...Object.values(streamTriggers).map((trigger) => trigger.handler),
    ]),
  ].sort();
}
