import * as z from 'zod';
import { creationProgressSchema } from '../schemas/items';
import { unreadCountersSchema } from '../schemas/notifications';
import { listingProgressSchema, OFFERING_STATUSES } from '../schemas/offerings';
import { ORDER_STATUSES } from '../schemas/orders';
import { AUCTION_PHASES, BID_STATUSES } from '../schemas/bids';

/**
 * The live channel's messages (spec 001 §7 "Real-time channel"), shared by the server
 * (functions/realtime) and the web client.
 *
 * - The client connects with `?userid=<id>&token=<Cognito access token>` (verified on `$connect`;
 *   the channel is the token's user), or `?userid=<annon>` as a guest, pings every 120 s
 *   (TIMINGS.pingMs) and reconnects 1 s after a close (TIMINGS.socketReconnectMs).
 * - Client → server messages carry `action` (API Gateway's route selection `$request.body.action`):
 *   `ping` has its own route; `subscribe`/`unsubscribe` go to `$default`.
 * - Server → client messages carry `type` and a message `id`; a client ignores an id it has seen.
 *   Messages sent through a topic carry that `topic`.
 * - The spec's three channels map to: the user's own channel (messages to every connection of a
 *   user) and topics a page subscribes to (`offering:<id>`, `item:<id>`, `profile:<id>`) for the
 *   spec's multicast events. Rooms are not part of the product (routes with `rooms` redirect home),
 *   so room events are left out.
 * - Payloads name only what the spec names (mostly the id of what changed: the client refetches);
 *   they grow with the features that emit them.
 */

/** The spec's userid of a guest connection (its spelling). */
export const GUEST_USER_ID = '<annon>';

export const TOPIC_KINDS = ['offering', 'item', 'profile'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];
export type Topic = `${TopicKind}:${string}`;

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const TOPIC_PATTERN = new RegExp(`^(${TOPIC_KINDS.join('|')}):[A-Za-z0-9_-]{1,64}$`);

export const topicSchema = z
  .string()
  .regex(TOPIC_PATTERN, { message: 'forms.validation.invalid' })
  .transform((value) => value as Topic);

export function topicOf(kind: TopicKind, id: string): Topic {
  if (!ID_PATTERN.test(id)) throw new RangeError(`not a topic id: ${JSON.stringify(id)}`);
  return `${kind}:${id}`;
}

const entityId = z.string().regex(ID_PATTERN);

// --- client → server --------------------------------------------------------------------------

export const pingMessageSchema = z.object({ action: z.literal('ping') });
export const subscribeMessageSchema = z.object({
  action: z.literal('subscribe'),
  topic: topicSchema,
});
export const unsubscribeMessageSchema = z.object({
  action: z.literal('unsubscribe'),
  topic: topicSchema,
});

export const clientMessageSchema = z.discriminatedUnion('action', [
  pingMessageSchema,
  subscribeMessageSchema,
  unsubscribeMessageSchema,
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ClientAction = ClientMessage['action'];

// --- server → client --------------------------------------------------------------------------

/** Every server message: a unique id (ULID) that lets clients drop duplicates. */
const messageId = z.string().min(1).max(64);
const message = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), id: messageId }).extend(shape);
/** An event: delivered to a user's channel, or through a topic (then it names the topic). */
const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  message(type, { topic: topicSchema.optional(), ...shape });

export const serverMessageSchema = z.discriminatedUnion('type', [
  // Channel protocol.
  message('pong', {}),
  message('subscribed', { topic: topicSchema }),
  message('unsubscribed', { topic: topicSchema }),
  /** `code` is an error code of shared/errors (also the web's i18n key). */
  message('error', { code: z.string(), message: z.string() }),
  // The user's own channel (spec 001 §7).
  /**
   * "new notification": the bell rings 10 s and the list and pending count are refetched. Carries
   * the new unread counters, so every tab shows them at once.
   */
  event('notification.created', {
    notificationId: z.string().min(1),
    counters: unreadCountersSchema,
  }),
  /** The user read (or unread) notifications in another tab or device: the new counters. */
  event('notification.updated', { counters: unreadCountersSchema }),
  /** "connection updates add or update a connection" (001 §3 Connection.connectionid). */
  event('connection.updated', { connectionid: z.string().min(1) }),
  /** "message status updates arrive live" (001 §3 Message.messageid). */
  event('message.updated', { messageid: z.string().min(1) }),
  /** "direct payment". */
  event('payment.direct', {}),
  /** "order created or paid". */
  event('order.created', { orderId: entityId }),
  event('order.paid', { orderId: entityId }),
  /** One of the user's orders (bought or sold) moved: its new status; the order page refetches. */
  event('order.updated', { orderId: entityId, status: z.enum(ORDER_STATUSES) }),
  /** "stripe update": the onboarding modal re-checks (001 §4, User.onboarding_status). */
  event('stripe.updated', { onboarding_status: z.string().optional() }),
  /** The user's saved cards changed (added, removed, new default): the card list is refetched. */
  event('payments.cards_updated', {}),
  /** "verify-identity" (001 §3 User.verification_status). */
  event('identity.verify', { verification_status: z.string().optional() }),
  /** "offering events" about the user's offerings: its new status (validated, delisted, …). */
  event('offering.updated', { offeringId: entityId, status: z.enum(OFFERING_STATUSES).optional() }),
  /** Progress of the user's own listing (spec 000 §4 listing progress; create/status's shape). */
  event('offering.progress', listingProgressSchema.shape),
  /** "bid response": the user's bid (or cancellation) was accepted; the lot as it stands. */
  event('bid.response', {
    offeringId: entityId,
    status: z.enum(BID_STATUSES).optional(),
    minimBid: z.number().int().optional(),
  }),
  /** The user's bid lost copies to a higher bid: the new minimum to win them back. */
  event('bid.outbid', { offeringId: entityId, minimBid: z.number().int() }),
  /** The user's auction result: won (an order to pay or paid), not won, or offered as substitute. */
  event('auction.result', {
    offeringId: entityId,
    result: z.enum(['won', 'notwon', 'substitute']),
    orderId: entityId.optional(),
  }),
  // The user's channel and topics ("multicast").
  /** "market item updates" / "market item" (topic item:<id>). */
  event('item.updated', { itemId: entityId }),
  /** Progress of the user's own item creation (spec 000 §4; token/create's answer shape). */
  event('item.creation', creationProgressSchema.shape),
  /** "profile update" (topic profile:<id>). */
  event('profile.updated', { userId: entityId }),
  /** "online users" (001 §3 User.is_online). */
  event('users.online', { userId: entityId, is_online: z.boolean() }),
  // Topics only (topic offering:<id>).
  /** "offering stats": an auction's counters (bidders, current price, minimum next bid, end). */
  event('offering.stats', {
    offeringId: entityId,
    bids: z.number().int().optional(),
    highestBid: z.number().int().nullable().optional(),
    minimBid: z.number().int().optional(),
    end_at: z.string().optional(),
  }),
  /**
   * "new bid": the visible amount per copy, the copies asked, the new threshold and current price,
   * the bidder's nick, the bidder count and the (possibly extended) end, and "outbid": the nicks of
   * the bidders this bid took copies from (one frame per watcher per bid, not two).
   */
  event('bid.new', {
    offeringId: entityId,
    amount: z.number().int().optional(),
    quantity: z.number().int().optional(),
    minimBid: z.number().int().optional(),
    highestBid: z.number().int().nullable().optional(),
    nick: z.string().optional(),
    outbid: z.array(z.string()).optional(),
    bids: z.number().int().optional(),
    end_at: z.string().optional(),
  }),
  /** Soft close moved the end (issue 13 §2): every watcher's countdown follows. */
  event('auction.extended', { offeringId: entityId, end_at: z.string() }),
  /** The auction is closing (winners being processed) or closed. */
  event('auction.phase', { offeringId: entityId, phase: z.enum(AUCTION_PHASES) }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A server message before publishing: the publisher assigns `id` unless given. */
export type ServerMessageDraft = DistributiveOmit<ServerMessage, 'id'> & { id?: string };

/**
 * Remembers the last `capacity` message ids: `seen(id)` is true for a duplicate (the client drops
 * it), false the first time.
 */
export function duplicateFilter(capacity = 500): { seen(id: string): boolean } {
  const ids = new Set<string>();
  return {
    seen(id) {
      if (ids.has(id)) return true;
      ids.add(id);
      if (ids.size > capacity) {
        const oldest = ids.values().next().value;
        if (oldest !== undefined) ids.delete(oldest);
      }
      return false;
    },
  };
}
