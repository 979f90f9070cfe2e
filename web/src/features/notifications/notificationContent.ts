import { CURRENCIES, type CurrencyCode } from '@shared/money';
import { formatMoney } from '@shared/format';
import type { Notification } from '@shared/schemas/notifications';
import { addTranslations, type TFunction } from '../../lib/i18n';
import { PATHS } from '../../lib/paths';
import notificationsTexts from '../../locales/en.notifications.json';
import { notificationDate } from './notificationDate';

addTranslations({ notifications: notificationsTexts });

/** Where a click on a notification leads (spec 001 §2). */
export type NotificationTarget = { kind: 'page'; to: string } | { kind: 'becomeMinter' };

/** Transfers open the item page on its available copies (`?type=available`). */
const TRANSFERS = new Set<Notification['activity']>(['market_transfer', 'asset_transfer']);

/** The item a notification is about, if any. */
export function itemOf(notification: Notification): string | null {
  return notification.itemmarket ?? notification.payload.itemmarket ?? null;
}

export function itemPath(item: string, available = false): string {
  return `/market/product/${encodeURIComponent(item)}${available ? '?type=available' : ''}`;
}

/**
 * minter_* opens the become-minter modal; one about an order (it names one: paid, shipped,
 * cancelled, a payout) its order page; market_* and asset_* the item page (on its available
 * copies for a transfer); update_order without an order the item page, or the wallet.
 */
export function notificationTarget(notification: Notification): NotificationTarget {
  if (notification.type === 'minter') return { kind: 'becomeMinter' };
  const orderId = notification.payload.orderId;
  if (orderId !== undefined && orderId !== '') {
    return { kind: 'page', to: `/account/orders/${encodeURIComponent(orderId)}` };
  }
  const item = itemOf(notification);
  if (item === null) return { kind: 'page', to: PATHS.wallet };
  return { kind: 'page', to: itemPath(item, TRANSFERS.has(notification.activity)) };
}

/** Whether `to` is the page at `pathname` already (the wallet: any of its tabs). */
export function isCurrentPage(to: string, pathname: string): boolean {
  const target = to.split(/[?#]/)[0] ?? to;
  return pathname === target || pathname.startsWith(`${target}/`);
}

/** The notification's text: its activity's, with the item and the user who caused it. */
export function notificationText(t: TFunction, notification: Notification): string {
  const { payload } = notification;
  const user =
    payload.sourcename?.trim() ||
    (payload.sourcenick ? `@${payload.sourcenick}` : t('notifications.someone'));
  const item = payload.itemName?.trim() || t('notifications.anItem');
  return t(`notifications.activity.${notification.activity}`, { user, item });
}

/** The amount a notification carries, formatted ('$1.234,56'), or null. */
export function notificationAmount(notification: Notification): string | null {
  const amount = notification.payload.amount;
  if (!amount || !(amount.currency in CURRENCIES)) return null;
  return formatMoney({ amount: amount.amount, currency: amount.currency as CurrencyCode });
}

/** The date as the dialog shows it (notificationDate.ts), in the viewer's zone. */
export function notificationDateText(
  t: TFunction,
  at: number,
  now: number,
  timeZone?: string,
): string {
  const date = notificationDate(at, now, { timeZone });
  switch (date.kind) {
    case 'today':
      return t('notifications.date.today', { time: date.time });
    case 'tomorrow':
      return t('notifications.date.tomorrow');
    case 'yesterday':
      return t('notifications.date.yesterday');
    case 'weekday':
      return date.weekday;
    case 'date':
      return date.date;
  }
}
