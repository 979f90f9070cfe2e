import type { OrderDispute } from '@shared/schemas/orders';
import disputesTexts from '../locales/en.disputes.json';
import { addTranslations, useTranslation } from './i18n';

/*
 * A dispute of an order's payment (a chargeback) in words: the order page (buyer and seller) and
 * support's money page show the same status and bank's reason. Its texts load with the pages that
 * use it (locales/en.disputes.json), not with the shell.
 */
addTranslations({ disputes: disputesTexts });

type KnownReason = keyof typeof disputesTexts.reason;

const isKnownReason = (reason: string): reason is KnownReason =>
  Object.prototype.hasOwnProperty.call(disputesTexts.reason, reason);

/** The status and the bank's reason of a dispute, as words. */
export function useDisputeText() {
  const { t } = useTranslation();
  return {
    /** Open — waiting for the bank, Won…, Lost…. */
    status: (status: OrderDispute['status']) => t(`disputes.status.${status}`),
    /** Stripe's reason code (fraudulent → "Reported as fraud"); an unknown code is named. */
    reason: (reason: string) =>
      isKnownReason(reason)
        ? t(`disputes.reason.${reason}`)
        : t('disputes.reasonOther', { code: reason }),
  };
}
