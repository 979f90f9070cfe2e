import type { SavedCard } from '@shared/schemas/payments';
import { addTranslations, type TFunction } from '../../lib/i18n';
import offeringTexts from '../../locales/en.offering.json';
import checkoutTexts from '../../locales/en.checkout.json';

addTranslations({ offering: offeringTexts, checkout: checkoutTexts });

/**
 * How an auction's time and cards read on the item page. Pure: texts come from the caller's
 * translator (`offering.bidding.*`, the checkout's card names).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The countdown to `endAt` (ISO) from `now` (ms): seconds show in the last hour; null once over. */
export function countdownText(t: TFunction, endAt: string, now: number): string | null {
  const rest = Date.parse(endAt) - now;
  if (!(rest > 0)) return null;
  if (rest >= DAY) {
    return t('offering.bidding.countdown.days', {
      days: Math.floor(rest / DAY),
      hours: Math.floor((rest % DAY) / HOUR),
    });
  }
  if (rest >= HOUR) {
    return t('offering.bidding.countdown.hours', {
      hours: Math.floor(rest / HOUR),
      minutes: Math.floor((rest % HOUR) / MINUTE),
    });
  }
  const seconds = Math.floor((rest % MINUTE) / SECOND);
  if (rest >= MINUTE) {
    return t('offering.bidding.countdown.minutes', { minutes: Math.floor(rest / MINUTE), seconds });
  }
  return t('offering.bidding.countdown.seconds', { seconds });
}

/** "Visa •••• 4242": the brand's name (Stripe's code where there is none) and the last four. */
export function cardLabel(
  card: Pick<SavedCard, 'brand' | 'last4'>,
  t: TFunction,
  exists: (key: string) => boolean,
): string {
  const key = `checkout.payment.brands.${card.brand}`;
  const brand = exists(key)
    ? t(key as 'checkout.payment.brands.visa')
    : card.brand
      ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1)
      : t('checkout.payment.brands.unknown');
  return t('checkout.payment.cardName', { brand, last4: card.last4 });
}

/** The longest wait a timer can take (setTimeout's limit, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
