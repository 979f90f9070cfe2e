import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { AuctionView } from '@shared/schemas/bids';
import { useId, useState } from 'react';
import { BidStatusChip } from '../../../components/BidStatusChip';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { viewerZone } from '../format';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/** Bids shown before "Show all". */
const FIRST_BIDS = 10;

/**
 * The lot's bid list (spec 000 §3 bidlist), highest maximum first: each bidder's nick, visible bid
 * per copy, copies (held of asked, on a multi-copy lot), status and when they last bid. The
 * caller's own row says so. While open, a lot lists its leading bids (the winners and the next
 * three) and the caller's own; the count is everyone's, and a line says how many more bid.
 */
export function BidList({ lot }: { lot: AuctionView }) {
  const { t } = useTranslation();
  const headingId = useId();
  const zone = viewerZone();
  const [all, setAll] = useState(false);
  const bids = all ? lot.bidlist : lot.bidlist.slice(0, FIRST_BIDS);
  const mine = lot.mine?.bidid ?? null;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <Typography
        id={headingId}
        variant="subtitle2"
        component="h4"
        sx={{ fontWeight: 600, mb: 0.5 }}
      >
        {t('offering.bidding.list.title')} ({Math.max(lot.bids, lot.bidlist.length)})
      </Typography>
      {lot.bidlist.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('offering.bidding.list.empty')}
        </Typography>
      ) : (
        <Box
          component="ol"
          aria-labelledby={headingId}
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid' }}
        >
          {bids.map((bid) => (
            <Box
              component="li"
              key={bid.bidid}
              sx={{
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'space-between',
                flexWrap: 'wrap',
                columnGap: 2,
                rowGap: 0.5,
                py: 1,
                borderTop: 1,
                borderColor: 'divider',
                bgcolor: bid.bidid === mine ? 'action.hover' : undefined,
                px: bid.bidid === mine ? 1 : 0,
              }}
            >
              <Box sx={{ minWidth: 0 }}>
                <Typography component="p" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  @{bid.nick}
                  {bid.bidid === mine ? ` (${t('offering.bidding.list.you')})` : null}
                </Typography>
                <Typography component="p" variant="caption" color="text.secondary">
                  <time dateTime={bid.created_at}>
                    {formatDateTime(bid.created_at, { timeZone: zone })}
                  </time>
                </Typography>
              </Box>
              <Box
                sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', ml: 'auto' }}
              >
                <Box sx={{ textAlign: 'right' }}>
                  <Typography
                    component="p"
                    sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}
                  >
                    {priceText(bid.amount, lot.currency)}
                  </Typography>
                  {lot.multi_copy ? (
                    <Typography component="p" variant="caption" color="text.secondary">
                      {t('offering.bidding.list.copies')}:{' '}
                      {t('offering.bidding.list.copiesValue', {
                        copies: bid.copies,
                        quantity: bid.quantity,
                      })}
                    </Typography>
                  ) : null}
                </Box>
                <BidStatusChip status={bid.status} reserve={lot.reserve} />
              </Box>
            </Box>
          ))}
        </Box>
      )}
      {lot.bids > lot.bidlist.length ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('offering.bidding.list.leading', { count: lot.bids - lot.bidlist.length })}
        </Typography>
      ) : null}
      {lot.bidlist.length > FIRST_BIDS ? (
        <Button size="small" onClick={() => setAll((shown) => !shown)} sx={{ mt: 0.5 }}>
          {all
            ? t('offering.bidding.list.showFewer')
            : t('offering.bidding.list.showAll', { count: lot.bidlist.length })}
        </Button>
      ) : null}
    </Box>
  );
}
