import ReceiptLongRoundedIcon from '@mui/icons-material/ReceiptLongRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { AuctionView, MyBid } from '@shared/schemas/bids';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { BidStatusChip, bidStatusKey } from '../../../components/BidStatusChip';
import { Fact, FactsGrid } from '../../../components/FactsGrid';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { orderPath } from '../../../lib/orders';
import { cardLabel } from '../auctionFormat';
import { viewerZone } from '../format';
import { offeredCopies, useAssignedTokens, useCancelBid } from '../hooks/useAuction';
import { AssignedCopies } from './AssignedCopies';
import offeringTexts from '../../../locales/en.offering.json';
import checkoutTexts from '../../../locales/en.checkout.json';

addTranslations({ offering: offeringTexts, checkout: checkoutTexts });

/** Statuses whose bid still stands in the lot (its amounts mean something). */
const STANDING = new Set<MyBid['status']>(['active', 'outbid']);

/**
 * The caller's own bid on the lot: its status, their bid and secret maximum, the copies it holds,
 * what they would pay now, the card; Cancel while the retraction rule allows it (a confirmation
 * quotes the rule); a winner's or substitute's copies (their serials, each paid or to pay by when,
 * with its order), or while those cannot be shown, their order with the date to pay by.
 */
export function MyBidPart({ lot, userId }: { lot: AuctionView; userId: string }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const zone = viewerZone();
  const [confirming, setConfirming] = useState(false);
  const copiesWanted = offeredCopies(lot);
  const copies = useAssignedTokens(lot, userId);
  const mine = lot.mine;
  if (mine === null) return null;
  // The copies stand for the order once they show (each links to its order); while they load,
  // nothing (their skeleton); without copies or when they fail, the order as the lot gives it.
  const copiesShown = copiesWanted && (copies.data?.tokens.length ?? 0) > 0;
  const orderShown = !copiesShown && (!copiesWanted || copies.data !== undefined || copies.isError);
  const price = (amount: number) => priceText(amount, lot.currency);
  const standing = STANDING.has(mine.status) && lot.phase === 'open';
  const showCopies = lot.multi_copy || mine.quantity > 1;
  const offered =
    mine.status === 'winner' || mine.status === 'substitute' || mine.status === 'substitute_winner';
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, mt: 2, display: 'grid', gap: 1.5 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id={headingId} variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          {t('offering.bidding.mine.title')}
        </Typography>
        <BidStatusChip status={mine.status} reserve={lot.reserve} />
      </Box>
      <Typography>
        {t(`offering.bidding.mine.status.${bidStatusKey(mine.status, lot.reserve)}`)}
      </Typography>
      {mine.quantity > 0 ? (
        <FactsGrid label={t('offering.bidding.mine.title')}>
          <Fact term={t('offering.bidding.mine.amount')}>
            {t('offering.bidding.mine.perCopy', { amount: price(mine.amount) })}
          </Fact>
          <Fact term={t('offering.bidding.mine.max')}>
            {t('offering.bidding.mine.perCopy', { amount: price(mine.max) })}
          </Fact>
          {showCopies ? (
            <Fact term={t('offering.bidding.mine.copies')}>
              {t('offering.bidding.mine.holding', {
                copies: mine.copies,
                quantity: mine.quantity,
              })}
            </Fact>
          ) : null}
          {mine.price > 0 && (standing || offered) ? (
            <Fact
              term={
                offered ? t('offering.bidding.mine.wonPrice') : t('offering.bidding.mine.price')
              }
            >
              {t('offering.bidding.mine.perCopy', { amount: price(mine.price) })}
            </Fact>
          ) : null}
          {mine.card ? (
            <Fact term={t('offering.bidding.mine.card')}>
              {cardLabel(mine.card, t, (key) => i18n.exists(key))}
            </Fact>
          ) : null}
          <Fact term={t('offering.bidding.mine.placedAt')}>
            {formatDateTime(mine.created_at, { timeZone: zone })}
          </Fact>
        </FactsGrid>
      ) : null}
      {copiesWanted ? <AssignedCopies copies={copies} currency={lot.currency} /> : null}
      {mine.order_id && orderShown ? (
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            component={RouterLink}
            to={orderPath(mine.order_id)}
            startIcon={<ReceiptLongRoundedIcon />}
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {t('offering.bidding.mine.order')}
          </Button>
          {mine.pay_by ? (
            <Typography variant="body2" color="text.secondary">
              {t('offering.bidding.mine.payBy', {
                date: formatDateTime(mine.pay_by, { timeZone: zone }),
              })}
            </Typography>
          ) : null}
        </Box>
      ) : null}
      {mine.can_cancel ? (
        <Box>
          <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
            {t('offering.bidding.mine.cancel')}
          </Button>
        </Box>
      ) : null}
      {confirming ? (
        <CancelBidDialog
          offeringId={lot.offeringid}
          userId={userId}
          onClose={() => setConfirming(false)}
          onCancelled={() => setConfirming(false)}
        />
      ) : null}
    </Paper>
  );
}

/** Confirms a retraction, quoting the rule (eBay's: 12 hours before the end, or within an hour). */
function CancelBidDialog({
  offeringId,
  userId,
  onClose,
  onCancelled,
}: {
  offeringId: string;
  userId: string;
  onClose: () => void;
  onCancelled: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  const cancel = useCancelBid(offeringId, userId);
  return (
    <Dialog open onClose={cancel.isPending ? undefined : onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t('offering.bidding.cancel.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 1.5 }}>
        <DialogContentText>{t('offering.bidding.cancel.rule')}</DialogContentText>
        <DialogContentText>{t('offering.bidding.cancel.effect')}</DialogContentText>
        {cancel.isError ? (
          <Alert severity="error" role="alert">
            {errorText(cancel.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={cancel.isPending}>
          {t('offering.bidding.cancel.keep')}
        </Button>
        <Button
          color="error"
          variant="contained"
          loading={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: onCancelled })}
        >
          {t('offering.bidding.cancel.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
