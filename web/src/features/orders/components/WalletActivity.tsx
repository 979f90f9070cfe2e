import ChevronLeftRoundedIcon from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRoundedIcon from '@mui/icons-material/ChevronRightRounded';
import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import ReceiptLongRoundedIcon from '@mui/icons-material/ReceiptLongRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { WalletActivity } from '@shared/schemas/orders';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { SellerBalanceCard } from '../../../components/SellerBalanceCard';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation, type TFunction } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { orderPath } from '../../../lib/orders';
import { useViewport } from '../../../lib/viewport';
import ordersTexts from '../../../locales/en.orders.json';
import { useWalletActivity } from '../hooks/useOrders';
import { RowsSkeleton } from './MarketActivity';
import { viewerZone } from './OrderParts';

addTranslations({ orders: ordersTexts });

export const PAGE_SIZES = [10, 25, 50] as const;

/** The wallet tab: the seller's balance and the wallet activity. */
export function WalletActivityTab({ userId }: { userId: string }) {
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <SellerBalanceCard userId={userId} />
      <WalletTable userId={userId} />
    </Box>
  );
}

/** A column of the wallet activity (spec 001 §2, the columns that apply to card payments). */
interface Column {
  key: string;
  label: (t: TFunction) => string;
  cell: (row: WalletActivity, t: TFunction) => ReactNode;
  numeric?: boolean;
}

const amount = (value: number, row: WalletActivity) => priceText(value, row.currency);

const COLUMNS: Column[] = [
  {
    key: 'date',
    label: (t) => t('orders.wallet.columns.date'),
    cell: (row) => formatDateTime(row.date, { timeZone: viewerZone() }),
  },
  {
    key: 'event',
    label: (t) => t('orders.wallet.columns.event'),
    cell: (row, t) => t(`orders.wallet.event.${row.event}`),
  },
  {
    key: 'type',
    label: (t) => t('orders.wallet.columns.type'),
    cell: (row, t) => t(`orders.wallet.type.${row.type}`),
  },
  {
    key: 'amount',
    label: (t) => t('orders.wallet.columns.amount'),
    cell: (row) => amount(row.amount, row),
    numeric: true,
  },
  {
    key: 'amountPaid',
    label: (t) => t('orders.wallet.columns.amountPaid'),
    cell: (row) => amount(row.amount_paid, row),
    numeric: true,
  },
  {
    key: 'amountReceived',
    label: (t) => t('orders.wallet.columns.amountReceived'),
    cell: (row) => amount(row.amount_received, row),
    numeric: true,
  },
  {
    key: 'receipt',
    label: (t) => t('orders.wallet.columns.receipt'),
    cell: (row, t) =>
      row.receipt ? (
        <Link href={row.receipt} target="_blank" rel="noopener noreferrer">
          {t('orders.wallet.receipt')}
        </Link>
      ) : (
        '—'
      ),
  },
  {
    key: 'txId',
    label: (t) => t('orders.wallet.columns.txId'),
    cell: (row) =>
      row.tx_id ? (
        <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {row.tx_id}
        </Box>
      ) : (
        '—'
      ),
  },
  {
    key: 'description',
    label: (t) => t('orders.wallet.columns.description'),
    cell: (row, t) => (
      <>
        {row.description}{' '}
        <Link component={RouterLink} to={orderPath(row.order_id)}>
          {t('orders.wallet.order')}
        </Link>
      </>
    ),
  },
  {
    key: 'appCommission',
    label: (t) => t('orders.wallet.columns.appCommission'),
    cell: (row) => amount(row.app_commission, row),
    numeric: true,
  },
  {
    key: 'total',
    label: (t) => t('orders.wallet.columns.total'),
    cell: (row) => amount(row.total, row),
    numeric: true,
  },
];

/**
 * The wallet activity (spec 001 §2): a table with the columns that apply to card payments, and
 * "transactions per page" over the rows loaded (the next pages are read as they are needed). Below
 * 768 px every row is a card of its facts.
 */
function WalletTable({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { phone } = useViewport();
  const query = useWalletActivity(userId);
  const [perPage, setPerPage] = useState<number>(PAGE_SIZES[0]);
  const [page, setPage] = useState(0);
  const selectId = useId();
  const rows = query.data?.pages.flatMap((each) => each.items) ?? [];
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const needed = (page + 1) * perPage;
  // Reads the next pages until the page shown is full (or there is nothing more).
  useEffect(() => {
    if (rows.length < needed && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      void fetchNextPage();
    }
  }, [rows.length, needed, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  if (query.isPending) return <RowsSkeleton label={t('orders.wallet.loading')} rows={3} />;
  if (query.isError && !query.isFetchNextPageError) {
    return (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('orders.wallet.loadFailed')}
        body={errorText(query.error)}
        action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
      />
    );
  }
  if (rows.length === 0) {
    return (
      <StatusMessage
        icon={<ReceiptLongRoundedIcon />}
        title={t('orders.wallet.empty')}
        body={t('orders.wallet.emptyBody')}
      />
    );
  }
  const from = page * perPage;
  const shown = rows.slice(from, from + perPage);
  const to = from + shown.length;
  const loadingMore = shown.length < perPage && hasNextPage && !isFetchNextPageError;
  const canNext = to < rows.length || hasNextPage;

  return (
    <Box>
      {phone ? (
        <Box
          component="ul"
          aria-label={t('orders.wallet.table')}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
        >
          {shown.map((row) => (
            <Paper component="li" variant="outlined" key={row.id} sx={{ p: 2 }}>
              <Box
                component="dl"
                sx={{
                  m: 0,
                  display: 'grid',
                  gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1.4fr)',
                  columnGap: 1.5,
                  rowGap: 0.5,
                  '& dd': { m: 0, overflowWrap: 'anywhere' },
                }}
              >
                {COLUMNS.map((column) => (
                  <Box key={column.key} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {column.label(t)}
                    </Typography>
                    <Typography component="dd" variant="body2">
                      {column.cell(row, t)}
                    </Typography>
                  </Box>
                ))}
              </Box>
            </Paper>
          ))}
        </Box>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('orders.wallet.table')}>
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell
                    key={column.key}
                    align={column.numeric ? 'right' : 'left'}
                    sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
                  >
                    {column.label(t)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((row) => (
                <TableRow key={row.id}>
                  {COLUMNS.map((column) => (
                    <TableCell
                      key={column.key}
                      align={column.numeric ? 'right' : 'left'}
                      sx={{
                        whiteSpace: column.numeric || column.key === 'date' ? 'nowrap' : undefined,
                        fontVariantNumeric: column.numeric ? 'tabular-nums' : undefined,
                        maxWidth: column.key === 'txId' ? 160 : undefined,
                      }}
                    >
                      {column.cell(row, t)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {loadingMore ? (
        <Box role="status" aria-label={t('orders.activity.loadingMore')} sx={{ mt: 1 }}>
          <Skeleton variant="rounded" height={40} />
        </Box>
      ) : null}
      {isFetchNextPageError ? (
        <Alert
          severity="error"
          sx={{ mt: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void fetchNextPage()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('orders.activity.retryMore')}
        </Alert>
      ) : null}
      <Box
        sx={{
          mt: 2,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'flex-end',
          gap: { xs: 1, sm: 2 },
          flexWrap: 'wrap',
        }}
      >
        <TextField
          id={selectId}
          select
          size="small"
          label={t('orders.wallet.perPage')}
          value={String(perPage)}
          onChange={(event) => {
            setPerPage(Number(event.target.value));
            setPage(0);
          }}
          slotProps={{ select: { native: true } }}
          sx={{ minWidth: 180 }}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </TextField>
        <Typography variant="body2" aria-live="polite">
          {hasNextPage
            ? t('orders.wallet.rangeMore', { from: from + 1, to, total: rows.length })
            : t('orders.wallet.range', { from: from + 1, to, total: rows.length })}
        </Typography>
        <Box>
          <IconButton
            aria-label={t('orders.wallet.previous')}
            onClick={() => setPage((current) => Math.max(0, current - 1))}
            disabled={page === 0}
          >
            <ChevronLeftRoundedIcon />
          </IconButton>
          <IconButton
            aria-label={t('orders.wallet.next')}
            onClick={() => setPage((current) => current + 1)}
            disabled={!canNext}
          >
            <ChevronRightRoundedIcon />
          </IconButton>
        </Box>
      </Box>
    </Box>
  );
}
