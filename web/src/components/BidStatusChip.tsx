import Chip, { type ChipProps } from '@mui/material/Chip';
import type { BidStatus } from '@shared/schemas/bids';
import { addTranslations, useTranslation } from '../lib/i18n';
import marketTexts from '../locales/en.market.json';

addTranslations({ market: marketTexts });

/** How each bid status stands out: winning and won in green, outbid in orange, the rest muted. */
const COLOR: Record<BidStatus, ChipProps['color']> = {
  active: 'success',
  winner: 'success',
  substitute_winner: 'success',
  substitute: 'info',
  outbid: 'warning',
  notwinner: 'default',
  expired: 'default',
  cancelled: 'default',
};

/**
 * A bid's status (spec 000 §4: active, winner, substitute, expired, outbid, notwinner, cancelled,
 * substitute winner), as the item page's bid list and My Bids show it.
 */
export function BidStatusChip({
  status,
  size = 'small',
}: {
  status: BidStatus;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation();
  const color = COLOR[status];
  return (
    <Chip
      size={size}
      color={color}
      variant={color === 'default' ? 'outlined' : 'filled'}
      label={t(`market.bidStatus.${status}`)}
      sx={{ fontWeight: 600 }}
    />
  );
}
