import Chip, { type ChipProps } from '@mui/material/Chip';
import type { BidStatus, ReserveState } from '@shared/schemas/bids';
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
 * How a status reads: an active bid on a lot whose hidden reserve is not met leads but would not
 * win ('leading'); every other status as it is.
 */
export function bidStatusKey(status: BidStatus, reserve: ReserveState | undefined) {
  return status === 'active' && reserve === 'not_met' ? 'leading' : status;
}

/**
 * A bid's status (spec 000 §4: active, winner, substitute, expired, outbid, notwinner, cancelled,
 * substitute winner), as the item page's bid list and My Bids show it; `reserve` is the lot's.
 */
export function BidStatusChip({
  status,
  reserve,
  size = 'small',
}: {
  status: BidStatus;
  reserve?: ReserveState;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation();
  const key = bidStatusKey(status, reserve);
  const color = key === 'leading' ? 'info' : COLOR[status];
  return (
    <Chip
      size={size}
      color={color}
      variant={color === 'default' ? 'outlined' : 'filled'}
      label={t(`market.bidStatus.${key}`)}
      sx={{ fontWeight: 600 }}
    />
  );
}
