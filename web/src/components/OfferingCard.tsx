import LockRoundedIcon from '@mui/icons-material/LockRounded';
import ScheduleRoundedIcon from '@mui/icons-material/ScheduleRounded';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { OfferingCard as Offering } from '@shared/schemas/offerings';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { addTranslations, useTranslation, type TFunction } from '../lib/i18n';
import { priceText, timeLeft, type TimeLeft } from '../lib/offeringFormat';
import marketTexts from '../locales/en.market.json';

addTranslations({ market: marketTexts });

/** The product page of an offering: its item, with the offering chosen (spec 000 §2). */
export function offeringPath(offering: Pick<Offering, 'id' | 'item'>): string {
  return `/market/product/${encodeURIComponent(offering.item.id)}?offering=${encodeURIComponent(offering.id)}`;
}

/** 'Ends in 2d 4h', 'Ends in 5h 12m', …, 'Ended'. */
export function timeLeftText(t: TFunction, left: TimeLeft): string {
  switch (left.kind) {
    case 'ended':
      return t('market.card.ended');
    case 'days':
      return t('market.card.endsIn', { time: t('market.card.time.days', left) });
    case 'hours':
      return t('market.card.endsIn', { time: t('market.card.time.hours', left) });
    case 'minutes':
      return t('market.card.endsIn', { time: t('market.card.time.minutes', left) });
    default:
      return t('market.card.endsIn', { time: t('market.card.time.underMinute') });
  }
}

/** What the card shows as the price: the fixed price, or an auction's highest or minimum bid. */
export function priceOf(offering: Offering): {
  label: 'price' | 'highestBid' | 'minimumBid';
  amount: number;
} {
  if (offering.type === 'fixed') return { label: 'price', amount: offering.price };
  return offering.highest_bid === null
    ? { label: 'minimumBid', amount: offering.price }
    : { label: 'highestBid', amount: offering.highest_bid };
}

/** The clock, read again every `everyMs` (the time left of a running auction). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

function AuctionTime({ offering, now }: { offering: Offering; now?: number }) {
  const { t } = useTranslation();
  const clock = useNow(30_000);
  let text: string;
  if (offering.auction_display === 'nobids') text = t('market.card.processing');
  else if (offering.auction_display === 'closed') text = t('market.card.ended');
  else text = timeLeftText(t, timeLeft(offering.end_at, now ?? clock));
  return (
    <Box
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        color: 'text.secondary',
        fontSize: '0.8125rem',
        minWidth: 0,
      }}
    >
      <ScheduleRoundedIcon aria-hidden sx={{ fontSize: 16 }} />
      <span>{text}</span>
    </Box>
  );
}

export interface OfferingCardProps {
  offering: Offering;
  /**
   * The favourite heart (the market feature's FavoriteButton), drawn over the image, above the
   * card's link. Absent: no heart.
   */
  renderFavorite?: (offering: Offering) => ReactNode;
  /** The time the auctions count down from (ms); default the clock, read every 30 s. */
  now?: number;
  /** Smaller, without the seller: a user's own offerings (the user card's carousel). */
  dense?: boolean;
  /** The heading level of the title (default 3: under a page's or section's h2). */
  headingLevel?: 'h2' | 'h3' | 'h4';
}

/**
 * An offering in a list (spec 000 §4 token display status, auction display; §9 'Buy Now' and
 * 'Auction', number format): image, title, seller, price or bid, copies left, time left of an
 * auction, a private badge. The whole card opens the product page with the offering chosen (a
 * stretched link named by the title); the heart sits above it.
 */
export function OfferingCard({
  offering,
  renderFavorite,
  now,
  dense = false,
  headingLevel = 'h3',
}: OfferingCardProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const price = priceOf(offering);
  const live = offering.display_status === 'buy_now' || offering.display_status === 'auction';
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      sx={{
        position: 'relative',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        transition: 'box-shadow 160ms ease, border-color 160ms ease, transform 160ms ease',
        '&:hover': {
          borderColor: 'rgba(79, 70, 229, 0.35)',
          boxShadow: '0 10px 30px -12px rgba(30, 27, 75, 0.25)',
          transform: 'translateY(-2px)',
        },
        '@media (prefers-reduced-motion: reduce)': { '&:hover': { transform: 'none' } },
      }}
    >
      <Box sx={{ position: 'relative', aspectRatio: '1', bgcolor: 'action.hover' }}>
        <Box
          component="img"
          src={offering.item.image.thumb || offering.item.image.url}
          alt=""
          loading="lazy"
          decoding="async"
          sx={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }}
        />
        <Box
          sx={{
            position: 'absolute',
            left: dense ? 6 : 8,
            top: dense ? 6 : 8,
            right: renderFavorite ? 48 : 8,
            display: 'flex',
            gap: 0.5,
            flexWrap: 'wrap',
          }}
        >
          <Chip
            size="small"
            label={t(`market.card.status.${offering.display_status}`)}
            color={live ? (offering.type === 'auction' ? 'secondary' : 'primary') : 'default'}
            sx={{
              fontWeight: 700,
              maxWidth: '100%',
              ...(live ? {} : { bgcolor: 'background.paper' }),
              ...(dense
                ? { height: 20, fontSize: '0.6875rem', '& .MuiChip-label': { px: 0.75 } }
                : {}),
            }}
          />
          {offering.access !== 'private' ? null : dense ? (
            <Box
              role="img"
              aria-label={t('market.card.private')}
              sx={{
                width: 20,
                height: 20,
                borderRadius: '50%',
                bgcolor: 'background.paper',
                display: 'grid',
                placeItems: 'center',
              }}
            >
              <LockRoundedIcon aria-hidden sx={{ fontSize: 13 }} />
            </Box>
          ) : (
            <Chip
              size="small"
              icon={<LockRoundedIcon aria-hidden />}
              label={t('market.card.private')}
              sx={{ bgcolor: 'background.paper', fontWeight: 600 }}
            />
          )}
        </Box>
        {renderFavorite ? (
          <Box sx={{ position: 'absolute', right: 4, top: 4, zIndex: 1 }}>
            {renderFavorite(offering)}
          </Box>
        ) : null}
      </Box>
      <Box
        sx={{
          p: dense ? 1 : 1.5,
          display: 'flex',
          flexDirection: 'column',
          gap: 0.25,
          flex: 1,
          minWidth: 0,
        }}
      >
        <Typography
          id={titleId}
          component={headingLevel}
          noWrap
          title={offering.item.title}
          sx={{ fontWeight: 700, fontSize: dense ? '0.875rem' : '1rem', lineHeight: 1.35 }}
        >
          {/* A stretched link: the whole card opens the product page. */}
          <Link
            component={RouterLink}
            to={offeringPath(offering)}
            underline="none"
            color="inherit"
            sx={{
              '&::after': {
                content: '""',
                position: 'absolute',
                inset: 0,
                borderRadius: 'inherit',
              },
              '&:focus-visible': { outline: 'none' },
              '&:focus-visible::after': {
                outline: '3px solid rgba(79, 70, 229, 0.55)',
                outlineOffset: 2,
              },
            }}
          >
            {offering.item.title}
          </Link>
        </Typography>
        {dense ? null : (
          <Typography variant="body2" color="text.secondary" noWrap>
            {t('market.card.seller', { nick: offering.seller.nick })}
          </Typography>
        )}
        <Box sx={{ mt: dense ? 0.25 : 1 }}>
          <Typography
            component="p"
            variant="caption"
            color="text.secondary"
            sx={{ lineHeight: 1.2, display: dense ? 'none' : 'block' }}
          >
            {t(`market.card.${price.label}`)}
          </Typography>
          <Typography
            component="p"
            sx={{
              fontWeight: 700,
              fontSize: dense ? '0.875rem' : '1.05rem',
              fontFeatureSettings: '"tnum"',
            }}
          >
            {priceText(price.amount, offering.currency)}{' '}
            <Box
              component="span"
              sx={{ fontWeight: 500, fontSize: '0.75rem', color: 'text.secondary' }}
            >
              {offering.currency}
            </Box>
          </Typography>
        </Box>
        {dense ? null : (
          <Box
            sx={{
              mt: 'auto',
              pt: 0.75,
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              justifyContent: 'space-between',
              columnGap: 1,
              rowGap: 0.25,
            }}
          >
            <Typography variant="body2" color="text.secondary" sx={{ fontSize: '0.8125rem' }}>
              {offering.copies_left > 0
                ? t('market.card.left', { left: offering.copies_left, total: offering.copies })
                : t('market.card.soldOut')}
            </Typography>
            {offering.type === 'auction' ? <AuctionTime offering={offering} now={now} /> : null}
          </Box>
        )}
      </Box>
    </Card>
  );
}

/** The grid the offering lists share: two columns on a phone, then as many as fit. */
export const OFFERING_GRID_SX = {
  listStyle: 'none',
  p: 0,
  m: 0,
  display: 'grid',
  gap: { xs: 1.5, sm: 2 },
  gridTemplateColumns: {
    xs: 'repeat(2, minmax(0, 1fr))',
    sm: 'repeat(auto-fill, minmax(200px, 1fr))',
  },
} as const;

export function OfferingCardSkeleton({ dense = false }: { dense?: boolean }) {
  return (
    <Card sx={{ height: '100%' }}>
      <Skeleton variant="rectangular" sx={{ aspectRatio: '1', height: 'auto' }} />
      <Box sx={{ p: dense ? 1 : 1.5 }}>
        <Skeleton width="80%" height={24} />
        {dense ? null : <Skeleton width="50%" height={20} />}
        <Skeleton width="40%" height={28} sx={{ mt: dense ? 0 : 1 }} />
      </Box>
    </Card>
  );
}

/** A list's loading state: `count` card placeholders, announced by `label`. */
export function OfferingGridSkeleton({ label, count = 8 }: { label: string; count?: number }) {
  return (
    <Box role="status" aria-label={label} aria-busy="true" sx={OFFERING_GRID_SX}>
      {Array.from({ length: count }, (_, index) => (
        <OfferingCardSkeleton key={index} />
      ))}
    </Box>
  );
}
