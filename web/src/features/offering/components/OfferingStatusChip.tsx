import Chip from '@mui/material/Chip';
import type { OfferingCard } from '@shared/schemas/offerings';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

type ChipColor = 'default' | 'success' | 'primary' | 'warning' | 'error' | 'info';

const COLORS: Record<OfferingCard['display_status'], ChipColor> = {
  buy_now: 'success',
  auction: 'primary',
  available: 'default',
  processing: 'info',
  pending: 'warning',
  not_validated: 'error',
  delisting: 'info',
  expired: 'default',
  no_transferrable: 'default',
  others: 'default',
};

/**
 * The token display status of an offering (spec 000 §4: 'Buy Now', 'Auction', …). An offering its
 * seller took off or that sold out says so, rather than the copies' `available`.
 */
export function OfferingStatusChip({
  offering,
}: {
  offering: Pick<OfferingCard, 'status' | 'display_status'>;
}) {
  const { t } = useTranslation();
  if (offering.status === 'delisted' || offering.status === 'sold') {
    return <Chip size="small" label={t(`offering.status.${offering.status}`)} />;
  }
  return (
    <Chip
      size="small"
      color={COLORS[offering.display_status]}
      label={t(`offering.status.${offering.display_status}`)}
    />
  );
}
