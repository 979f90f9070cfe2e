import HourglassBottomRoundedIcon from '@mui/icons-material/HourglassBottomRounded';
import TimerOutlinedIcon from '@mui/icons-material/TimerOutlined';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { AuctionView } from '@shared/schemas/bids';
import type { OfferingCard, OfferingDetail } from '@shared/schemas/offerings';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { countdownText, MAX_TIMER_MS } from '../auctionFormat';
import { viewerZone } from '../format';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/** The clock, every second while mounted (only the countdown reads it). */
function useSecondClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The time left to `endAt`, ticking every second (the end moves with a soft-close extension and
 * the countdown with it). `onEnd` is told once when it reaches the end while the lot is open.
 */
function Countdown({
  endAt,
  onEnd,
  labelledBy,
}: {
  endAt: string;
  onEnd: () => void;
  labelledBy: string;
}) {
  const { t } = useTranslation();
  const now = useSecondClock();
  const text = countdownText(t, endAt, now);
  const ended = useRef<string | null>(null);
  const tell = useRef(onEnd);
  useEffect(() => {
    tell.current = onEnd;
  }, [onEnd]);
  // The end itself, without waiting for the next tick (and once per end: an extension re-arms it).
  useEffect(() => {
    const rest = Date.parse(endAt) - Date.now();
    if (!(rest > 0) || rest > MAX_TIMER_MS) return undefined;
    const timer = setTimeout(() => {
      if (ended.current === endAt) return;
      ended.current = endAt;
      tell.current();
    }, rest + 1_000);
    return () => clearTimeout(timer);
  }, [endAt]);
  return (
    <Box
      component="span"
      role="timer"
      aria-labelledby={labelledBy}
      sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 700 }}
    >
      {text ?? t('offering.bidding.countdown.ending')}
    </Box>
  );
}

function Amount({ label, value, note }: { label: string; value: ReactNode; note?: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
        {value}
      </Typography>
      {note ? (
        <Typography variant="caption" color="text.secondary">
          {note}
        </Typography>
      ) : null}
    </Box>
  );
}

/**
 * An auction at a glance (spec 000 §4 auction display): the time left counting down (and
 * "Extended" once a late bid moved the end), the current price and the minimum next bid, whether
 * the hidden reserve is met, the copies and the one-copy rule; after the end, "Processing
 * winners" (closing) or "Closed". Until the lot arrives, the market card's figures.
 */
export function AuctionSummary({
  offering,
  detail,
  lot,
  lotPending,
  now,
  onEnd,
}: {
  offering: OfferingCard | OfferingDetail;
  detail: OfferingDetail | undefined;
  lot: AuctionView | undefined;
  lotPending: boolean;
  now: number;
  onEnd: () => void;
}) {
  const { t } = useTranslation();
  const timeLabelId = useId();
  const zone = viewerZone();
  const price = (amount: number) => priceText(amount, offering.currency);
  const endAt = lot?.end_at ?? offering.end_at;
  const phase = lot?.phase ?? null;
  const started = Date.parse(offering.start_at) <= now;
  const extended = lot !== undefined && lot.end_at !== lot.scheduled_end_at;
  const highest = lot ? lot.highestBid : offering.highest_bid;
  const multiCopy = lot?.multi_copy ?? detail?.multi_copy;
  const copies = lot?.copies ?? offering.copies_left;
  const seller = detail?.is_seller ?? false;

  let time: ReactNode;
  if (phase === 'closing') {
    time = (
      <Alert severity="info" icon={<HourglassBottomRoundedIcon />} role="status">
        <AlertTitle>{t('offering.bidding.closing')}</AlertTitle>
        {t('offering.bidding.closingBody')}
      </Alert>
    );
  } else if (phase === 'closed') {
    time = (
      <Alert severity="info" role="status">
        <AlertTitle>{t('offering.bidding.closed')}</AlertTitle>
        {t('offering.bidding.closedBody')}{' '}
        {t('offering.bidding.endedAt', { date: formatDateTime(endAt, { timeZone: zone }) })}
      </Alert>
    );
  } else if (!started) {
    time = (
      <Typography>
        {t('offering.bidding.notStarted', {
          date: formatDateTime(offering.start_at, { timeZone: zone }),
        })}
      </Typography>
    );
  } else {
    time = (
      <Box sx={{ display: 'grid', gap: 0.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <TimerOutlinedIcon color="action" aria-hidden />
          <Typography id={timeLabelId} component="span" color="text.secondary">
            {t('offering.bidding.timeLeft')}
          </Typography>
          {lot ? (
            <Countdown endAt={endAt} onEnd={onEnd} labelledBy={timeLabelId} />
          ) : lotPending ? (
            <Skeleton width={90} aria-hidden />
          ) : (
            <Box component="span" sx={{ fontWeight: 700 }}>
              {countdownText(t, endAt, now) ?? t('offering.time.ended')}
            </Box>
          )}
          {extended ? (
            <Chip size="small" color="warning" label={t('offering.bidding.extended')} />
          ) : null}
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('offering.bidding.endsAt', { date: formatDateTime(endAt, { timeZone: zone }) })}
          {lot && lot.soft_close_minutes > 0
            ? ` · ${t('offering.bidding.softClose', { count: lot.soft_close_minutes })}`
            : null}
        </Typography>
        {extended && lot ? (
          <Typography variant="body2" color="text.secondary">
            {t('offering.bidding.extendedNote', {
              date: formatDateTime(lot.scheduled_end_at, { timeZone: zone }),
            })}
          </Typography>
        ) : null}
      </Box>
    );
  }

  return (
    <Box
      component="section"
      aria-label={t('offering.bidding.label')}
      sx={{ mt: 1.5, display: 'grid', gap: 1.5 }}
    >
      {time}
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          columnGap: { xs: 3, sm: 5 },
          rowGap: 1.5,
        }}
      >
        <Amount
          label={
            phase === 'closed' && lot?.copies === 1
              ? t('offering.bidding.finalPrice')
              : t('offering.bidding.currentPrice')
          }
          value={highest === null ? t('offering.bidding.noBids') : price(highest)}
          note={
            lot && lot.bids > 0
              ? t('offering.bidding.bidders', { count: lot.bids })
              : t('offering.price.perCopy')
          }
        />
        {phase === null || phase === 'open' ? (
          <Amount
            label={t('offering.bidding.minimumNext')}
            value={
              lot ? (
                price(lot.minimBid)
              ) : lotPending ? (
                <Skeleton width={100} aria-hidden />
              ) : (
                price(offering.price)
              )
            }
            note={t('offering.bidding.startingBid', {
              amount: price(lot?.minimum ?? offering.price),
            })}
          />
        ) : null}
        {offering.buy_price !== null ? (
          <Amount label={t('offering.price.buyPrice')} value={price(offering.buy_price)} />
        ) : null}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {lot && lot.reserve !== 'none' ? (
          <Chip
            size="small"
            variant="outlined"
            color={lot.reserve === 'met' ? 'success' : 'warning'}
            label={t(`offering.bidding.reserve.${lot.reserve}`)}
          />
        ) : null}
        <Typography variant="body2" color="text.secondary">
          {t('offering.bidding.copies', { count: copies })}
          {multiCopy === undefined
            ? null
            : ` · ${multiCopy ? t('offering.bidding.multiCopy') : t('offering.bidding.oneCopy')}`}
        </Typography>
      </Box>
      {lot && lot.reserve === 'not_met' && !seller && lot.phase === 'open' ? (
        <Typography variant="body2" color="text.secondary">
          {t('offering.bidding.reserve.not_metNote')}
        </Typography>
      ) : null}
      {seller && detail ? (
        <Typography variant="body2" color="text.secondary">
          {detail.reserve_price !== null
            ? t('offering.bidding.seller.reserve', { amount: price(detail.reserve_price) })
            : t('offering.bidding.seller.noReserve')}
        </Typography>
      ) : null}
    </Box>
  );
}
