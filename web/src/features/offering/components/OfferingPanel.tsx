import GavelRoundedIcon from '@mui/icons-material/GavelRounded';
import LockRoundedIcon from '@mui/icons-material/LockRounded';
import PersonAddRoundedIcon from '@mui/icons-material/PersonAddRounded';
import RemoveShoppingCartRoundedIcon from '@mui/icons-material/RemoveShoppingCartRounded';
import ShoppingCartRoundedIcon from '@mui/icons-material/ShoppingCartRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import { NO_TERMS } from '@shared/schemas/items';
import type { OfferingCard, OfferingDetail } from '@shared/schemas/offerings';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Fact, FactsGrid } from '../../../components/FactsGrid';
import { RetryButton } from '../../../components/StatusMessage';
import { bidKeys } from '../../../lib/bids';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation, type TFunction } from '../../../lib/i18n';
import { priceText, timeLeft } from '../../../lib/offeringFormat';
import { checkoutPath } from '../../../lib/orders';
import { usePermission } from '../../../lib/permission';
import { viewerZone } from '../format';
import { useAuctionLive, useAuctionLot } from '../hooks/useAuction';
import { isNotFound, useNow, useOfferingDetail, useViewer } from '../hooks/useOfferings';
import { AuctionSummary } from './AuctionSummary';
import { BidForm } from './BidForm';
import { BidList } from './BidList';
import { DelistDialog } from './DelistDialog';
import { MyBidPart } from './MyBidPart';
import { FavoriteButton } from './FavoriteButton';
import { InviteDialog } from './InviteDialog';
import { OfferingStatusChip } from './OfferingStatusChip';
import checkoutTexts from '../../../locales/en.checkout.json';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts, checkout: checkoutTexts });

/**
 * One offering of the item (spec 000 §2 item detail): its price or bids, copies, seller, time,
 * status, payment and terms, and the seller's own actions (delist, invite). The market's card
 * shows at once; the rest comes with getofferingbyid. A fixed-price sale on sale with copies left
 * has Buy now for anyone but its seller (guests log in first); an auction has its lot (the
 * countdown, the current price and minimum next bid, the reserve, the caller's bid, the bid form
 * and the bid list), followed live.
 */
export function OfferingPanel({
  offeringId,
  card,
  focused = false,
  onCopiesMoved,
}: {
  offeringId: string;
  /** The market's card of it, when the item's list had it. */
  card?: OfferingCard;
  /** The offering the link named (`?offering=`). */
  focused?: boolean;
  /** The offering's copies went back to their owner (delisted). */
  onCopiesMoved?: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const detail = useOfferingDetail(offeringId);
  if (detail.isError && isNotFound(detail.error)) return <NotAvailable />;
  const offering = detail.data ?? card;
  if (!offering) {
    if (detail.isError) {
      return (
        <Alert
          severity="error"
          action={<RetryButton onClick={() => void detail.refetch()} busy={detail.isFetching} />}
        >
          {t('offering.section.detailFailed')}: {errorText(detail.error)}
        </Alert>
      );
    }
    return (
      <Box role="status" aria-label={t('offering.section.loading')}>
        <OfferingPanelSkeleton />
      </Box>
    );
  }
  return (
    <OfferingView
      offering={offering}
      detail={detail.data}
      focused={focused}
      detailState={
        detail.isError ? (
          <Alert
            severity="error"
            action={<RetryButton onClick={() => void detail.refetch()} busy={detail.isFetching} />}
          >
            {errorText(detail.error)}
          </Alert>
        ) : detail.isPending ? (
          <Box aria-hidden>
            <Skeleton width="60%" />
            <Skeleton width="40%" />
          </Box>
        ) : null
      }
      onRefused={() => void detail.refetch()}
      onCopiesMoved={onCopiesMoved}
    />
  );
}

/** A private offering not for this viewer answers 404: said inside the page, the item stays. */
export function NotAvailable() {
  const { t } = useTranslation();
  return (
    <Alert severity="info" icon={<LockRoundedIcon />}>
      <Typography component="p" sx={{ fontWeight: 600 }}>
        {t('offering.section.notAvailable')}
      </Typography>
      <Typography component="p" variant="body2">
        {t('offering.section.notAvailableBody')}
      </Typography>
    </Alert>
  );
}

export function OfferingPanelSkeleton() {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} aria-hidden>
      <Box sx={{ display: 'flex', gap: 1, mb: 2 }}>
        <Skeleton variant="rounded" width={80} height={24} />
        <Skeleton variant="rounded" width={90} height={24} />
      </Box>
      <Skeleton width="35%" height={40} />
      <Skeleton width="70%" />
      <Skeleton width="55%" />
    </Paper>
  );
}

/** The statuses of an auction that has a lot to show: running or closing, then its result. */
const LOT_STATUSES: ReadonlySet<OfferingCard['status']> = new Set(['validated', 'expired', 'sold']);

function OfferingView({
  offering,
  detail,
  focused,
  detailState,
  onRefused,
  onCopiesMoved,
}: {
  offering: OfferingCard | OfferingDetail;
  detail: OfferingDetail | undefined;
  focused: boolean;
  detailState: ReactNode;
  onRefused: () => void;
  onCopiesMoved?: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const headingId = useId();
  const now = useNow();
  const guard = usePermission();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'delist' | 'invite' | null>(null);
  const seller = detail?.is_seller ?? false;
  const auction = offering.type === 'auction';
  const zone = viewerZone();
  const price = (amount: number) => priceText(amount, offering.currency);
  const started = Date.parse(offering.start_at) <= now;
  const viewer = useViewer();
  const queryClient = useQueryClient();
  // An auction has bids once on the market (and its result after): not while it waits for
  // support, nor once refused.
  const lotWanted = auction && LOT_STATUSES.has(offering.status);
  const lot = useAuctionLot(offering.id, lotWanted);
  useAuctionLive(offering.id, lotWanted, seller);
  const refreshLot = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: bidKeys.lots(offering.id) });
  }, [queryClient, offering.id]);
  const phase = lot.data?.phase ?? null;
  // On the market and bidding: the lot is open, the start has come (the end is the lot's).
  const biddable =
    auction &&
    offering.status === 'validated' &&
    phase === 'open' &&
    started &&
    Date.parse(lot.data?.end_at ?? offering.end_at) > now;
  // Anyone signed in but the seller (whose panel has no form) may bid.
  const canBid = biddable && detail !== undefined && !seller;
  // An auction sells at its buy-now price until its first bid (eBay's rule; docs/auctions.md).
  const auctionBuyNow =
    biddable && offering.buy_price !== null && lot.data?.bids === 0 && (lot.data.copies ?? 0) > 0;
  const canBuy =
    detail !== undefined &&
    !seller &&
    offering.status === 'validated' &&
    ((offering.type === 'fixed' &&
      offering.display_status === 'buy_now' &&
      offering.copies_left > 0 &&
      started &&
      Date.parse(offering.end_at) > now) ||
      auctionBuyNow);

  return (
    <Paper
      component="article"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{
        p: { xs: 2, sm: 3 },
        borderColor: focused ? 'primary.main' : undefined,
        borderWidth: focused ? 2 : undefined,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', flex: 1, minWidth: 0 }}>
          <OfferingStatusChip offering={offering} />
          {/* On the market the status names the type already ('Buy Now', 'Auction'). */}
          {offering.display_status !== 'buy_now' && offering.display_status !== 'auction' ? (
            <Chip size="small" variant="outlined" label={t(`offering.type.${offering.type}`)} />
          ) : null}
          {offering.auction_display ? (
            <Chip
              size="small"
              variant="outlined"
              label={t(`offering.auction.${offering.auction_display}`)}
            />
          ) : null}
          {offering.access === 'private' ? (
            <Chip
              size="small"
              variant="outlined"
              icon={<LockRoundedIcon />}
              label={t('offering.private')}
            />
          ) : null}
        </Box>
        {detail && !seller ? <FavoriteButton offering={detail} /> : null}
      </Box>
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ mt: 1, fontWeight: 600 }}>
        {seller
          ? t('offering.section.yours')
          : t('offering.section.offering', { nick: offering.seller.nick })}
      </Typography>

      {auction ? (
        <AuctionSummary
          offering={offering}
          detail={detail}
          lot={lot.data}
          lotPending={lotWanted && lot.isPending}
          now={now}
          onEnd={refreshLot}
        />
      ) : (
        <Box sx={{ mt: 1.5 }}>
          <Amount
            label={t('offering.price.fixed')}
            value={price(offering.price)}
            note={t('offering.price.perCopy')}
          />
        </Box>
      )}
      {canBuy ? (
        <Button
          variant="contained"
          size="large"
          startIcon={<ShoppingCartRoundedIcon />}
          onClick={() => guard('buy', () => void navigate(checkoutPath(offering.id)))}
          sx={{ mt: 2, width: { xs: '100%', sm: 'auto' } }}
        >
          {t('checkout.buyNow')}
        </Button>
      ) : null}
      {auction && lot.isError ? (
        <Alert
          severity="error"
          sx={{ mt: 2 }}
          action={<RetryButton onClick={() => void lot.refetch()} busy={lot.isFetching} />}
        >
          {loadProblem(t('market.bid.errors.load'), errorText(lot.error))}
        </Alert>
      ) : null}
      {auction && lot.data && viewer.id !== null ? (
        <MyBidPart lot={lot.data} userId={viewer.id} />
      ) : null}
      {auction && lot.data && canBid && viewer.id !== null ? (
        <BidForm offering={offering} lot={lot.data} userId={viewer.id} />
      ) : null}
      {auction && biddable && viewer.known && viewer.id === null ? (
        <Box sx={{ mt: 2, display: 'grid', gap: 1, justifyItems: 'start' }}>
          <Button
            variant="contained"
            size="large"
            startIcon={<GavelRoundedIcon />}
            onClick={() => guard('bid', () => undefined)}
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {t('offering.bidding.login.action')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('offering.bidding.login.body')}
          </Typography>
        </Box>
      ) : null}

      <FactsGrid label={t('offering.facts.title')} sx={{ mt: 2 }}>
        <Fact term={t('offering.facts.copiesLeft')}>
          {t('offering.facts.copiesLeftValue', {
            left: offering.copies_left,
            total: offering.copies,
          })}
        </Fact>
        <Fact term={t('offering.facts.seller')}>
          <Link component={RouterLink} to={`/${offering.seller.nick}`}>
            @{offering.seller.nick}
          </Link>
        </Fact>
        {/* An auction's time left is its countdown, above. */}
        {auction ? null : (
          <Fact term={t('offering.facts.timeLeft')}>
            {started
              ? timeLeftText(t, offering.end_at, now)
              : t('offering.time.startsAt', {
                  date: formatDateTime(offering.start_at, { timeZone: zone }),
                })}
          </Fact>
        )}
        <Fact term={t('offering.facts.ends')}>
          {formatDateTime(lot.data?.end_at ?? offering.end_at, { timeZone: zone })}
        </Fact>
        <Fact term={t('offering.facts.currency')}>{offering.currency}</Fact>
        {detail ? (
          <Fact term={t('offering.facts.payment')}>
            {/* An auction charges at its end (its winners' saved cards), not at a purchase. */}
            {detail.payment_mode === 'deposit' && detail.deposit !== null
              ? t(auction ? 'offering.facts.depositAuction' : 'offering.facts.deposit', {
                  amount: price(detail.deposit),
                })
              : t(auction ? 'offering.facts.fullPriceAuction' : 'offering.facts.fullPrice')}
          </Fact>
        ) : null}
        {detail && auction ? (
          <Fact term={t('offering.facts.copiesPerBid')}>
            {detail.multi_copy ? t('offering.facts.multiCopy') : t('offering.facts.oneCopy')}
          </Fact>
        ) : null}
        {offering.categories.length > 0 ? (
          <Fact term={t('offering.facts.categories')} wide>
            <Box component="span" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              {offering.categories.map((category) => (
                <Chip
                  key={category}
                  size="small"
                  component="span"
                  label={t(`offering.categories.${category}`)}
                />
              ))}
            </Box>
          </Fact>
        ) : null}
        {detail && detail.notes.trim() !== '' ? (
          <Fact term={t('offering.facts.notes')} wide>
            {detail.notes}
          </Fact>
        ) : null}
        {detail ? (
          <Fact term={t('offering.facts.terms')} wide>
            {detail.terms === NO_TERMS ? t('offering.facts.noTerms') : detail.terms}
          </Fact>
        ) : null}
      </FactsGrid>
      {detailState ? <Box sx={{ mt: 2 }}>{detailState}</Box> : null}
      {auction && lot.data ? <BidList lot={lot.data} /> : null}

      {detail && seller ? (
        <SellerPart
          offering={detail}
          onDelist={() => guard('delist', () => setDialog('delist'))}
          onInvite={() => setDialog('invite')}
        />
      ) : null}
      {detail && dialog === 'delist' ? (
        <DelistDialog
          offering={detail}
          open
          onClose={() => setDialog(null)}
          onRefused={onRefused}
          onDelisted={onCopiesMoved}
        />
      ) : null}
      {detail && dialog === 'invite' ? (
        <InviteDialog offering={detail} open onClose={() => setDialog(null)} />
      ) : null}
    </Paper>
  );
}

/** What only the seller sees: validation news, invited users, delist and invite. */
function SellerPart({
  offering,
  onDelist,
  onInvite,
}: {
  offering: OfferingDetail;
  onDelist: () => void;
  onInvite: () => void;
}) {
  const { t, i18n } = useTranslation();
  const isPrivate = offering.access === 'private';
  // A reason support did not write is a text key (e.g. the validation timeout's).
  const reason =
    offering.reason && i18n.exists(offering.reason)
      ? t(offering.reason as 'unexpected')
      : offering.reason;
  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 1.5 }}>
      {offering.display_status === 'pending' ? (
        <Alert severity="info">{t('offering.seller.pending')}</Alert>
      ) : null}
      {offering.display_status === 'not_validated' ? (
        <Alert severity="warning">
          {t('offering.seller.notValidated')}
          {reason ? (
            <Typography component="span" sx={{ display: 'block', mt: 0.5 }}>
              {t('offering.seller.reason', { reason })}
            </Typography>
          ) : null}
        </Alert>
      ) : null}
      {isPrivate ? (
        <Box>
          <Typography variant="body2" color="text.secondary" component="h4">
            {t('offering.seller.invited')} ({offering.invited.length})
          </Typography>
          {offering.invited.length === 0 ? (
            <Typography variant="body2">{t('offering.seller.nobodyInvited')}</Typography>
          ) : (
            <Box
              component="ul"
              aria-label={t('offering.seller.invited')}
              sx={{
                listStyle: 'none',
                p: 0,
                m: 0,
                mt: 0.5,
                display: 'flex',
                gap: 0.5,
                flexWrap: 'wrap',
              }}
            >
              {offering.invited.map((each) => (
                <li key={each.id}>
                  <Chip size="small" variant="outlined" label={`@${each.nick}`} />
                </li>
              ))}
            </Box>
          )}
        </Box>
      ) : null}
      {offering.can_delist || isPrivate ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {isPrivate ? (
            <Button variant="outlined" startIcon={<PersonAddRoundedIcon />} onClick={onInvite}>
              {t('offering.invite.open')}
            </Button>
          ) : null}
          {offering.can_delist ? (
            <Button
              variant="outlined"
              color="error"
              startIcon={<RemoveShoppingCartRoundedIcon />}
              onClick={onDelist}
            >
              {t('offering.delist.open')}
            </Button>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

/** "Error get bids: <why>", without saying it twice when the why is the same text. */
function loadProblem(title: string, reason: string): string {
  return reason === title ? title : `${title}: ${reason}`;
}

function timeLeftText(t: TFunction, endAt: string, now: number): string {
  const left = timeLeft(endAt, now);
  switch (left.kind) {
    case 'ended':
      return t('offering.time.ended');
    case 'days':
      return t('offering.time.days', { days: left.days, hours: left.hours });
    case 'hours':
      return t('offering.time.hours', { hours: left.hours, minutes: left.minutes });
    case 'minutes':
      return t('offering.time.minutes', { minutes: left.minutes });
    case 'underMinute':
      return t('offering.time.underMinute');
  }
}

function Amount({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Box>
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
