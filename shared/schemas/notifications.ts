import * as z from 'zod';

/**
 * Notifications (spec 001 §2 Notifications, §3 Notification, §4 reading rules and counters, §7
 * notifications calls). Shared by the notifications domain (functions/notifications) and the web's
 * bell and dialog (web/src/features/notifications).
 *
 * An activity is `section_action` (001 §3). Connection, message and room kinds are off in this
 * deployment and not built; the kinds the marketplace issues add their own (offering validated or
 * not, outbid, auction ending, payment due, payout sent).
 */
export const NOTIFICATION_ACTIVITIES = [
  // Seller onboarding (001 §4): pending while Stripe checks, completed when the seller can sell.
  'minter_pending',
  'minter_completed',
  // Stripe could not pay the seller's balance out to their bank (payout.failed).
  'minter_payoutfailed',
  // An order of the user changed (status, shipping).
  'update_order',
  // A copy was transferred to the user.
  'asset_transfer',
  // The marketplace (001 §3 market_*).
  'market_bidcreated',
  'market_ordercreated',
  'market_orderpaid',
  'market_royaltypaid',
  'market_ordercancelled',
  'market_transfer',
  'market_invitation',
  'market_auction_win',
  'market_auction_notwin',
  'market_auction_substitute',
  'market_newoffering',
  'market_offeringvalidated',
  'market_offeringrejected',
  'market_outbid',
  'market_auctionending',
  'market_paymentdue',
  'market_payoutsent',
  // The buyer's bank disputed an order's payment (to its seller and to support), and its outcome.
  'market_disputeopened',
  'market_disputewon',
  'market_disputelost',
] as const;
export type NotificationActivity = (typeof NOTIFICATION_ACTIVITIES)[number];
export const notificationActivitySchema = z.enum(NOTIFICATION_ACTIVITIES);

/** The section of an activity (the part before the first `_`): the unread counters' buckets. */
export const NOTIFICATION_SECTIONS = ['minter', 'update', 'asset', 'market'] as const;
export type NotificationSection = (typeof NOTIFICATION_SECTIONS)[number];
export const notificationSectionSchema = z.enum(NOTIFICATION_SECTIONS);

export function sectionOf(activity: NotificationActivity): NotificationSection {
  return activity.slice(0, activity.indexOf('_')) as NotificationSection;
}

/**
 * E-mail groups (the preferences of /account/settings/general): e-mail is on or off per group;
 * in-app is always on.
 */
export const EMAIL_GROUPS = ['orders', 'auctions', 'offerings', 'followed'] as const;
export type EmailGroup = (typeof EMAIL_GROUPS)[number];
export const emailGroupSchema = z.enum(EMAIL_GROUPS);

/**
 * What must not be missed: the kinds that are also e-mailed (when their group is on). Every other
 * kind is in-app only.
 */
export const EMAILED_ACTIVITIES: Readonly<Partial<Record<NotificationActivity, EmailGroup>>> = {
  minter_payoutfailed: 'orders',
  market_orderpaid: 'orders',
  market_paymentdue: 'orders',
  market_payoutsent: 'orders',
  market_disputeopened: 'orders',
  market_disputewon: 'orders',
  market_disputelost: 'orders',
  market_auction_win: 'auctions',
  market_auction_substitute: 'auctions',
  market_auction_notwin: 'auctions',
  market_auctionending: 'auctions',
  market_outbid: 'auctions',
  market_offeringvalidated: 'offerings',
  market_offeringrejected: 'offerings',
  market_newoffering: 'followed',
};

export function emailGroupOf(activity: NotificationActivity): EmailGroup | null {
  return EMAILED_ACTIVITIES[activity] ?? null;
}

export const notificationPreferencesSchema = z.object({
  email: z.object({
    orders: z.boolean(),
    auctions: z.boolean(),
    offerings: z.boolean(),
    followed: z.boolean(),
  }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** Defaults: e-mail on for orders and payments, auctions and offerings; off for followed sellers. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  email: { orders: true, auctions: true, offerings: true, followed: false },
};

/** Body of PUT /api/notifications/{id}/preferences: any subset of the groups. */
export const updatePreferencesSchema = z.object({
  email: z
    .object({
      orders: z.boolean().optional(),
      auctions: z.boolean().optional(),
      offerings: z.boolean().optional(),
      followed: z.boolean().optional(),
    })
    .strict(),
});
export type UpdatePreferencesBody = z.infer<typeof updatePreferencesSchema>;

const money = z.object({ amount: z.number().int(), currency: z.string() });

/**
 * What a notification says beyond its kind (001 §3 payload: tokenImage, amount, time,
 * itemmarket). Amounts are money in minor units (the spec's amountSats is for the off sats mode).
 */
export const notificationPayloadSchema = z.object({
  /** The item's image (a public image URL). */
  tokenImage: z.string().optional(),
  /** The item's name, shown in the text. */
  itemName: z.string().optional(),
  /** The item (its page is /product/<itemmarket>). */
  itemmarket: z.string().optional(),
  offeringId: z.string().optional(),
  orderId: z.string().optional(),
  amount: money.optional(),
  /** A time the notification is about (an auction's end), ms. */
  time: z.number().int().optional(),
  /** The nick and name of the user who caused it (a seller, a bidder). */
  sourcenick: z.string().optional(),
  sourcename: z.string().optional(),
  /** Why support did not validate an offering (market_offeringrejected). */
  reason: z.string().max(500).optional(),
  /** An onboarding status, for minter_*. */
  status: z.string().optional(),
});
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

/** A notification as the calls answer it (001 §3 fields). */
export const notificationSchema = z.object({
  id: z.string(),
  activity: notificationActivitySchema,
  /** The user who caused it ('' for the marketplace itself). */
  sourceid: z.string(),
  /** The user it is for (always the caller). */
  destinationid: z.string(),
  read: z.boolean(),
  /** Creation time, ms since the epoch. */
  createdat: z.number().int(),
  /** The activity's section. */
  type: notificationSectionSchema,
  /** Who may read it: only its destination. */
  access: z.literal('private'),
  payload: notificationPayloadSchema,
  /** The item it is about, if any (also in payload). */
  itemmarket: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/**
 * The unread counters (001 §4: they count only unread), maintained on write. `version` grows with
 * every change of them (a notification, a read, an unread, a mark-all): of two copies that reach a
 * tab in either order (a live event, an answer, a fetch started before the change), the one with
 * the higher version is the newer.
 */
export const unreadCountersSchema = z.object({
  unread: z.number().int().nonnegative(),
  version: z.number().int().nonnegative(),
  sections: z.object({
    minter: z.number().int().nonnegative(),
    update: z.number().int().nonnegative(),
    asset: z.number().int().nonnegative(),
    market: z.number().int().nonnegative(),
  }),
});
export type UnreadCounters = z.infer<typeof unreadCountersSchema>;

/** Page size of the notifications list (001 §9: page sizes 50 and 10). */
export const NOTIFICATIONS_PAGE_SIZE = 10;

/** Query of GET /api/notifications/{id}: the spec's optional cursor and section. */
export const listNotificationsQuerySchema = z.object({
  cursor: z
    .string()
    .min(1, { error: 'forms.validation.cursor' })
    .max(1024, { error: 'forms.validation.cursor' })
    .optional(),
  section: z.enum(NOTIFICATION_SECTIONS, { error: 'forms.validation.enum' }).optional(),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuerySchema>;

export const notificationPageSchema = z.object({
  notifications: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** Body of PUT /api/notifications/{id}/{notificationId} (001 §7 {read, activity, mode}). */
export const markNotificationSchema = z.object({
  read: z.boolean({ error: 'forms.validation.required' }),
  /** The spec's fields; accepted and checked against the notification when given. */
  activity: notificationActivitySchema.optional(),
  mode: z.literal('sidebar').optional(),
});
export type MarkNotificationBody = z.infer<typeof markNotificationSchema>;

export const markNotificationAnswerSchema = z.object({
  notification: notificationSchema,
  counters: unreadCountersSchema,
});

/** Body of POST /api/notifications/unsubscribe: the signed token of an e-mail's link. */
export const unsubscribeSchema = z.object({
  token: z
    .string({ error: 'forms.validation.required' })
    .min(1, { error: 'forms.validation.required' })
    .max(512, { error: 'notifications.errors.unsubscribe_invalid' }),
});
export const unsubscribeAnswerSchema = z.object({ group: emailGroupSchema });

/** The unsubscribe page of the web app (the e-mails' link): /unsubscribe?token=… */
export const UNSUBSCRIBE_PATH = '/unsubscribe';

/**
 * An unsubscribe token: `<user id, base64url>.<group>.<signature>`. The group is readable so the
 * page can name it before the call; only the server can check the signature.
 */
export function readUnsubscribeToken(
  token: string,
): { userId: string; group: EmailGroup; signature: string } | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [encodedUser = '', group = '', signature = ''] = parts;
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(encodedUser) || !/^[A-Za-z0-9_-]{16,128}$/.test(signature)) {
    return null;
  }
  const parsedGroup = emailGroupSchema.safeParse(group);
  if (!parsedGroup.success) return null;
  let userId: string;
  try {
    userId = decodeBase64Url(encodedUser);
  } catch {
    return null;
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(userId)) return null;
  return { userId, group: parsedGroup.data, signature };
}

function decodeBase64Url(value: string): string {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  return atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
}
