import type {
  EmailGroup,
  Notification,
  NotificationActivity,
} from '../../shared/schemas/notifications';
import { formatMoney } from '../../shared/format';
import { CURRENCIES, type CurrencyCode } from '../../shared/money';

/**
 * The e-mail of a notification: a subject, a plain-text and an HTML part (same content), the item's
 * name, a link to where the notification leads, and the link that turns this group's e-mails off.
 */
export interface NotificationEmail {
  subject: string;
  text: string;
  html: string;
}

const GROUP_NAMES: Record<EmailGroup, string> = {
  orders: 'orders and payments',
  auctions: 'auctions',
  offerings: 'your offerings',
  followed: 'new offerings by sellers you follow',
};

function amountText(value: { amount: number; currency: string }): string {
  const code = value.currency.toUpperCase();
  if (!Object.hasOwn(CURRENCIES, code)) return `${value.amount} ${value.currency}`;
  return formatMoney({ amount: value.amount, currency: code as CurrencyCode });
}

/** One sentence per kind (English; the web has its own texts). */
export function notificationSentence(notification: Notification): string {
  const { payload } = notification;
  const item = payload.itemName ? `“${payload.itemName}”` : 'your item';
  const seller = payload.sourcenick ? `@${payload.sourcenick}` : 'A seller you follow';
  const amount = payload.amount ? ` (${amountText(payload.amount)})` : '';
  const sentences: Record<NotificationActivity, string> = {
    minter_pending: 'Stripe is checking your seller account. We will tell you when you can sell.',
    minter_completed: 'Your seller account is active: you can list your items now.',
    minter_payoutfailed: `Stripe could not pay${amount} out to your bank: check your bank details in your Stripe dashboard.`,
    update_order: `Your order of ${item} was updated.`,
    asset_transfer: `${item} was transferred to you.`,
    market_bidcreated: `A new bid was placed on ${item}${amount}.`,
    market_ordercreated: `A new order of ${item}${amount}.`,
    market_orderpaid: `The order of ${item} is paid${amount}.`,
    market_royaltypaid: `You received a royalty for ${item}${amount}.`,
    market_ordercancelled: `The order of ${item} was cancelled.`,
    market_transfer: `${item} was transferred to you.`,
    market_invitation: `You are invited to ${item}.`,
    market_auction_win: `You won the auction of ${item}${amount}.`,
    market_auction_notwin: `The auction of ${item} ended: another bid won.`,
    market_auction_substitute: `The winner of ${item} did not pay: you can buy it${amount}.`,
    market_newoffering: `${seller} published a new offering: ${item}.`,
    market_offeringvalidated: `Your offering of ${item} was validated and is on the market.`,
    market_offeringrejected: `Your offering of ${item} was not validated.`,
    market_outbid: `You were outbid on ${item}${amount}.`,
    market_auctionending: `The auction of ${item} ends soon.`,
    market_paymentdue: `Payment is due for ${item}${amount}.`,
    market_payoutsent: `A payout was sent to your bank${amount}.`,
    market_disputeopened: `The buyer's bank disputes the payment for ${item}${amount}: its payout is frozen until the bank decides.`,
    market_disputewon: `The dispute about ${item} was decided for the seller: the payout goes ahead.`,
    market_disputelost: `The dispute about ${item} was lost: the bank returned the payment to the buyer and the order is cancelled.`,
  };
  return sentences[notification.activity];
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function notificationEmail(
  notification: Notification,
  links: { open: string; unsubscribe: string; settings: string; appName: string },
  group: EmailGroup,
): NotificationEmail {
  const sentence = notificationSentence(notification);
  const subject = sentence.length > 90 ? `${sentence.slice(0, 87)}…` : sentence;
  const groupName = GROUP_NAMES[group];
  const text = [
    sentence,
    '',
    `Open it: ${links.open}`,
    '',
    '—',
    `You receive this e-mail because e-mails about ${groupName} are on in your ${links.appName} settings.`,
    `Stop these e-mails: ${links.unsubscribe}`,
    `All your notification settings: ${links.settings}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1a1a;line-height:1.5;margin:0;padding:24px;">
<p style="font-size:16px;margin:0 0 16px;">${escapeHtml(sentence)}</p>
<p style="margin:0 0 24px;"><a href="${escapeHtml(links.open)}" style="display:inline-block;background:#1a56db;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;">Open</a></p>
<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 12px;">
<p style="font-size:12px;color:#555;margin:0;">You receive this e-mail because e-mails about ${escapeHtml(groupName)} are on in your ${escapeHtml(links.appName)} settings.
<a href="${escapeHtml(links.unsubscribe)}" style="color:#555;">Stop these e-mails</a> · <a href="${escapeHtml(links.settings)}" style="color:#555;">Notification settings</a></p>
</body></html>`;
  return { subject, text, html };
}
