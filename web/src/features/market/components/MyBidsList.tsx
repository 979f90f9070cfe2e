import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import GavelRoundedIcon from '@mui/icons-material/GavelRounded';
import ReceiptLongRoundedIcon from '@mui/icons-material/ReceiptLongRounded';
import ScheduleRoundedIcon from '@mui/icons-material/ScheduleRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { MyBidsPage } from '@shared/schemas/bids';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { BidStatusChip } from '../../../components/BidStatusChip';
import { offeringPath, timeLeftText } from '../../../components/OfferingCard';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText, timeLeft } from '../../../lib/offeringFormat';
import { orderPath } from '../../../lib/orders';
import marketTexts from '../../../locales/en.market.json';
import { LoadMore } from './LoadMore';
import type { MyBidFilter } from '../filters';
import { useMyBids } from '../hooks/useMarket';

addTranslations({ market: marketTexts });

type MyBidsItem = MyBidsPage['items'][number];

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The clock, read every 30 s (the time left of the auctions still open). */
function useClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function Figure({
  label,
  note,
  children,
}: {
  label: string;
  note?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0 }}>
        <Typography
          component="span"
          sx={{ display: 'block', fontWeight: 600, overflowWrap: 'anywhere' }}
        >
          {children}
        </Typography>
        {note ? (
          <Typography
            component="span"
            variant="caption"
            color="text.secondary"
            sx={{ display: 'block' }}
          >
            {note}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}

/**
 * One auction of My Bids: the item (its link opens the item page on this offering), the caller's
 * bid status, their bid and maximum, the copies it holds, the current price, the time left (or
 * "Processing winners", or when it ended), and for a winner or substitute their order.
 */
function MyBidRow({ entry, now }: { entry: MyBidsItem; now: number }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { offering, bid } = entry;
  const price = (amount: number) => priceText(amount, offering.currency);
  const zone = viewerZone();
  let time: string;
  if (entry.phase === 'closing') time = t('market.mybids.processing');
  else if (entry.phase === 'closed') {
    time = t('market.mybids.endsAt', { date: formatDateTime(entry.end_at, { timeZone: zone }) });
  } else time = timeLeftText(t, timeLeft(entry.end_at, now));
  const standing = bid.quantity > 0;
  const won =
    bid.status === 'winner' || bid.status === 'substitute' || bid.status === 'substitute_winner';
  const held =
    bid.quantity <= 1
      ? null
      : entry.phase === 'open'
        ? t('market.mybids.holding', { copies: bid.copies, quantity: bid.quantity })
        : won
          ? t('market.mybids.won', { copies: bid.copies, quantity: bid.quantity })
          : null;
  const copiesNote =
    bid.quantity > 1
      ? [t('market.mybids.perCopy'), t('market.mybids.copies', { count: bid.quantity }), held]
          .filter(Boolean)
          .join(' · ')
      : t('market.mybids.perCopy');
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '72px minmax(0, 1fr)', sm: '112px minmax(0, 1fr)' },
        gap: { xs: 1.5, sm: 2 },
        p: { xs: 1.5, sm: 2 },
        alignItems: 'start',
      }}
    >
      <Box
        component="img"
        src={offering.item.image.thumb || offering.item.image.url}
        alt=""
        loading="lazy"
        sx={{
          width: '100%',
          aspectRatio: '1',
          objectFit: 'cover',
          borderRadius: 2,
          bgcolor: 'action.hover',
        }}
      />
      <Box sx={{ minWidth: 0, display: 'grid', gap: 1 }}>
        <Box
          sx={{
            display: 'flex',
            gap: 1,
            alignItems: 'flex-start',
            justifyContent: 'space-between',
            flexWrap: 'wrap',
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography
              id={titleId}
              component="h3"
              sx={{ fontWeight: 700, fontSize: '1rem', overflowWrap: 'anywhere' }}
            >
              <Link component={RouterLink} to={offeringPath(offering)} color="inherit">
                {offering.item.title}
              </Link>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('market.mybids.seller', { nick: offering.seller.nick })}
            </Typography>
          </Box>
          <BidStatusChip status={bid.status} reserve={entry.reserve} />
        </Box>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gap: 1,
            gridTemplateColumns: {
              xs: 'repeat(2, minmax(0, 1fr))',
              md: 'repeat(4, minmax(0, 1fr))',
            },
          }}
        >
          {standing ? (
            <Figure label={t('market.mybids.yourBid')} note={copiesNote}>
              {price(bid.amount)}
            </Figure>
          ) : null}
          {standing ? (
            <Figure label={t('market.mybids.max')} note={t('market.mybids.perCopy')}>
              {price(bid.max)}
            </Figure>
          ) : null}
          <Figure label={t('market.mybids.currentPrice')}>
            {entry.highestBid === null ? t('market.mybids.noBids') : price(entry.highestBid)}
          </Figure>
          <Figure label={t('market.mybids.time')}>
            <Box
              component="span"
              sx={{ display: 'inline-flex', alignItems: 'flex-start', gap: 0.5 }}
            >
              <ScheduleRoundedIcon aria-hidden sx={{ fontSize: 16, mt: '0.2em', flexShrink: 0 }} />
              {time}
            </Box>
          </Figure>
        </Box>
        {bid.order_id ? (
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              size="small"
              component={RouterLink}
              to={orderPath(bid.order_id)}
              startIcon={<ReceiptLongRoundedIcon />}
            >
              {t('market.mybids.order')}
            </Button>
            {bid.pay_by ? (
              <Typography variant="body2" color="text.secondary">
                {t('market.mybids.payBy', {
                  date: formatDateTime(bid.pay_by, { timeZone: zone }),
                })}
              </Typography>
            ) : null}
          </Box>
        ) : null}
      </Box>
    </Card>
  );
}

function MyBidsSkeleton({ label }: { label: string }) {
  return (
    <Box role="status" aria-label={label} aria-busy="true" sx={{ display: 'grid', gap: 1.5 }}>
      {[0, 1, 2].map((key) => (
        <Skeleton key={key} variant="rounded" height={128} />
      ))}
    </Box>
  );
}

/**
 * My Bids' list for a status: loading, the error ('Error get bids') with a retry, empty (with a
 * way to the auctions, or to another status), the bids and Load more while there are more.
 */
export function MyBidsList({ userId, status }: { userId: string; status: MyBidFilter }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useMyBids(userId, status);
  const now = useClock();
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];

  if (query.isPending) return <MyBidsSkeleton label={t('market.mybids.loading')} />;
  if (query.isError && !query.isFetchNextPageError) {
    const title = t('market.bid.errors.load');
    const reason = errorText(query.error);
    return (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={title}
        body={reason === title ? undefined : reason}
        action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
      />
    );
  }
  if (entries.length === 0) {
    return status === 'any' ? (
      <StatusMessage
        icon={<GavelRoundedIcon />}
        title={t('market.mybids.empty')}
        body={t('market.mybids.emptyBody')}
        action={
          <Button
            component={RouterLink}
            to="/market/preview/marketplace?offer=auction"
            variant="contained"
          >
            {t('market.mybids.browse')}
          </Button>
        }
      />
    ) : (
      <StatusMessage
        icon={<GavelRoundedIcon />}
        title={t('market.mybids.emptyFiltered')}
        body={t('market.mybids.emptyFilteredBody')}
      />
    );
  }
  return (
    <>
      <Box
        component="ul"
        aria-label={t('market.mybids.bids')}
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}
      >
        {entries.map((entry) => (
          <Box component="li" key={entry.offering.id} sx={{ minWidth: 0 }}>
            <MyBidRow entry={entry} now={now} />
          </Box>
        ))}
      </Box>
      <LoadMore query={query} failedText={t('market.bid.errors.load')} />
    </>
  );
}
