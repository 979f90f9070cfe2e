import CheckCircleRoundedIcon from '@mui/icons-material/CheckCircleRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { AssignedTokens, AuctionView } from '@shared/schemas/bids';
import type { UseQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { RetryButton } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { orderPath } from '../../../lib/orders';
import { viewerZone } from '../format';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

type AssignedCopy = AssignedTokens['tokens'][number];

/**
 * The copies of an auction the caller won or was offered as substitute (offering/getassignedtokens):
 * "Your copies: #3, #5", then each copy with its price and state, paid (a link to its order) or to
 * pay by a date (a link to pay its order). A skeleton while it loads, an error with a retry,
 * nothing when there is no copy.
 */
export function AssignedCopies({
  copies,
  currency,
}: {
  copies: UseQueryResult<AssignedTokens>;
  currency: AuctionView['currency'];
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const headingId = useId();
  if (copies.data === undefined) {
    if (copies.isError) {
      const title = t('offering.bidding.assigned.failed');
      const reason = errorText(copies.error);
      return (
        <Alert
          severity="error"
          action={<RetryButton onClick={() => void copies.refetch()} busy={copies.isFetching} />}
          sx={{ '& .MuiAlert-message': { minWidth: 0, overflowWrap: 'anywhere' } }}
        >
          {reason === title ? title : `${title}: ${reason}`}
        </Alert>
      );
    }
    return (
      <Box role="status" aria-label={t('offering.bidding.assigned.loading')}>
        <Skeleton variant="text" width="45%" sx={{ fontSize: '0.875rem' }} />
        <Skeleton variant="rounded" height={40} sx={{ mt: 0.5 }} />
      </Box>
    );
  }
  const tokens = [...copies.data.tokens].sort((a, b) => a.index - b.index);
  if (tokens.length === 0) return null;
  const serials = tokens
    .map((token) => t('offering.bidding.assigned.serial', { index: token.index }))
    .join(', ');
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography
        id={headingId}
        variant="subtitle2"
        component="h5"
        sx={{ fontWeight: 600, mb: 0.5, overflowWrap: 'anywhere' }}
      >
        {t('offering.bidding.assigned.title', { count: tokens.length, serials })}
      </Typography>
      <Box
        component="ul"
        aria-labelledby={headingId}
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid' }}
      >
        {tokens.map((token) => (
          <CopyRow key={token.copy_id} token={token} currency={currency} />
        ))}
      </Box>
    </Box>
  );
}

function CopyRow({ token, currency }: { token: AssignedCopy; currency: AuctionView['currency'] }) {
  const { t } = useTranslation();
  const zone = viewerZone();
  const copy = t('offering.bidding.assigned.copy', { index: token.index });
  return (
    <Box
      component="li"
      aria-label={copy}
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        columnGap: 1.5,
        rowGap: 0.75,
        py: 1,
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography component="p" sx={{ fontWeight: 600 }}>
          {copy}
        </Typography>
        <Typography
          component="p"
          variant="caption"
          color="text.secondary"
          sx={{ fontVariantNumeric: 'tabular-nums' }}
        >
          {priceText(token.price, currency)}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', minWidth: 0 }}>
        {token.assignround === 'substitute' ? (
          <Chip
            size="small"
            variant="outlined"
            color="info"
            label={t('offering.bidding.assigned.substitute')}
          />
        ) : null}
        {token.paid && token.balance_due > 0 ? (
          <>
            <Chip
              size="small"
              color="success"
              variant="outlined"
              icon={<CheckCircleRoundedIcon />}
              label={t('offering.bidding.assigned.depositPaid')}
              sx={{ fontWeight: 600 }}
            />
            <Typography variant="body2" color="text.secondary">
              {t('offering.bidding.assigned.balanceDue', {
                amount: priceText(token.balance_due, currency),
              })}
            </Typography>
          </>
        ) : token.paid ? (
          <Chip
            size="small"
            color="success"
            icon={<CheckCircleRoundedIcon />}
            label={t('offering.bidding.assigned.paid')}
            sx={{ fontWeight: 600 }}
          />
        ) : token.pay_by ? (
          <Typography variant="body2" color="text.secondary">
            {t('offering.bidding.assigned.payBy', {
              date: formatDateTime(token.pay_by, { timeZone: zone }),
            })}
          </Typography>
        ) : null}
      </Box>
      <Box sx={{ ml: 'auto' }}>
        {token.paid ? (
          <Link component={RouterLink} to={orderPath(token.order_id)} variant="body2">
            {t('offering.bidding.assigned.view')}
          </Link>
        ) : (
          <Button
            size="small"
            variant="contained"
            component={RouterLink}
            to={orderPath(token.order_id)}
          >
            {t('offering.bidding.assigned.pay')}
          </Button>
        )}
      </Box>
    </Box>
  );
}
