import AccountBalanceWalletOutlinedIcon from '@mui/icons-material/AccountBalanceWalletOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '@shared/format';
import { CURRENCIES, money, type CurrencyCode } from '@shared/money';
import type { MoneyAmount } from '@shared/schemas/payments';
import { useId, type ReactNode } from 'react';
import { ApiError } from '../lib/api';
import { useErrorText } from '../lib/errors';
import { addTranslations, useTranslation } from '../lib/i18n';
import { getUserBalance, orderKeys } from '../lib/orders';
import ordersTexts from '../locales/en.orders.json';

addTranslations({ orders: ordersTexts });

/** Stripe's amounts name the currency in lower case; ours are known by their upper-case code. */
function balanceText(amount: MoneyAmount): string {
  const code = amount.currency.toUpperCase();
  if (code in CURRENCIES) return formatMoney(money(amount.amount, code as CurrencyCode));
  return `${amount.amount} ${code}`;
}

/**
 * The seller's balance on Stripe (GET payment-gateway/getuserbalance: available and pending, per
 * currency), for the wallet page and the wallet activity; a user who is not a seller is told so.
 */
export function SellerBalanceCard({ userId }: { userId: string }) {
  const balance = useQuery({
    queryKey: orderKeys.balance(userId),
    queryFn: ({ signal }) => getUserBalance(signal),
    retry: false,
  });
  const { t } = useTranslation();
  const errorText = useErrorText();
  const headingId = useId();
  const notSeller =
    balance.error instanceof ApiError && balance.error.code === 'onboarding.errors.not_onboarded';
  let content: ReactNode;
  if (balance.isPending) {
    content = (
      <Box role="status" aria-label={t('common.loading')}>
        <Skeleton width="50%" height={36} />
      </Box>
    );
  } else if (notSeller) {
    content = (
      <Typography variant="body2" color="text.secondary">
        {t('orders.wallet.noSeller')}
      </Typography>
    );
  } else if (balance.isError) {
    content = (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={() => void balance.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('orders.wallet.balanceFailed')} {errorText(balance.error)}
      </Alert>
    );
  } else {
    const rows: { label: string; amounts: MoneyAmount[] }[] = [
      { label: t('orders.wallet.available'), amounts: balance.data.available },
      { label: t('orders.wallet.pending'), amounts: balance.data.pending },
    ];
    content = (
      <Box
        component="dl"
        sx={{ m: 0, display: 'flex', gap: { xs: 3, sm: 6 }, flexWrap: 'wrap', '& dd': { m: 0 } }}
      >
        {rows.map((row) => (
          <Box key={row.label}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {row.label}
            </Typography>
            <Typography component="dd" variant="h6" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {row.amounts.length === 0
                ? t('orders.wallet.noBalance')
                : row.amounts.map(balanceText).join(' · ')}
            </Typography>
          </Box>
        ))}
      </Box>
    );
  }
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 }, display: 'flex', gap: 2, alignItems: 'flex-start' }}
    >
      <AccountBalanceWalletOutlinedIcon color="primary" aria-hidden sx={{ mt: 0.5 }} />
      <Box sx={{ display: 'grid', gap: 1, minWidth: 0, flex: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('orders.wallet.balance')}
        </Typography>
        {content}
      </Box>
    </Paper>
  );
}
