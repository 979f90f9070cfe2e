import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import RefreshRoundedIcon from '@mui/icons-material/RefreshRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { MoneyOverview } from '@shared/schemas/orders';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useDisputeText } from '../../../lib/disputes';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation, type TFunction } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { orderPath } from '../../../lib/orders';
import adminTexts from '../../../locales/en.admin.json';
import { adminKeys, fetchMoneyOverview } from '../api/admin';
import { AdminNav } from './AdminNav';
import { AdminOnly } from './AdminOnly';
import { MoneyTable, type MoneyColumn } from './MoneyTable';

addTranslations({ admin: adminTexts });

type DisputeRow = MoneyOverview['disputes'][number];
type OwedAccount = MoneyOverview['owed'][number];
type OwedLine = OwedAccount['lines'][number];
type Finding = MoneyOverview['findings'][number];

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const dateText = (value: string) => formatDateTime(value, { timeZone: viewerZone() });

const has = (texts: object, key: string) => Object.prototype.hasOwnProperty.call(texts, key);

/** A code of the API in words, when the page knows it; the code itself otherwise. */
function owedReasonText(t: TFunction, reason: string): string {
  return has(adminTexts.money.owed.reason, reason)
    ? t(`admin.money.owed.reason.${reason as keyof typeof adminTexts.money.owed.reason}`)
    : reason;
}

function findingText(t: TFunction, code: string): string {
  return has(adminTexts.money.findings.codes, code)
    ? t(`admin.money.findings.codes.${code as keyof typeof adminTexts.money.findings.codes}`)
    : code;
}

function stripeStatusText(t: TFunction, status: string): string {
  return has(adminTexts.money.stripeStatus, status)
    ? t(`admin.money.stripeStatus.${status as keyof typeof adminTexts.money.stripeStatus}`)
    : status;
}

/** Soonest evidence deadline first; those without one last, oldest first. */
function byDeadline(a: DisputeRow, b: DisputeRow): number {
  const due = (row: DisputeRow) =>
    row.dispute.evidence_due_by === null
      ? Number.POSITIVE_INFINITY
      : Date.parse(row.dispute.evidence_due_by);
  return due(a) - due(b) || Date.parse(a.dispute.opened_at) - Date.parse(b.dispute.opened_at) || 0;
}

/**
 * `/admin/money`: what needs support about money, for admins only (the 404 page for anyone else,
 * as `/admin/offerings`).
 */
export function AdminMoneyRoute() {
  return (
    <AdminOnly>
      <AdminMoneyPage />
    </AdminOnly>
  );
}

/**
 * Support's money page (GET /api/admin/money): the open disputes (soonest evidence deadline
 * first), the accounts that owe the platform with how their debt came and went, and what
 * reconciliation with Stripe found.
 */
export function AdminMoneyPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('admin.money.title'), app: t('app.name') }),
    noIndex: true,
  });
  const query = useQuery({
    queryKey: adminKeys.money,
    queryFn: ({ signal }) => fetchMoneyOverview(signal),
  });
  const retry = () => void query.refetch();

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <AdminNav current="money" />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h4" component="h1">
          {t('admin.money.title')}
        </Typography>
        {query.data ? (
          <Button
            onClick={retry}
            loading={query.isFetching}
            startIcon={<RefreshRoundedIcon />}
            variant="outlined"
            size="small"
          >
            {t('admin.money.refresh')}
          </Button>
        ) : null}
      </Box>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t('admin.money.intro')}
      </Typography>
      {query.data ? (
        <Box sx={{ display: 'grid', gap: 4, minWidth: 0 }}>
          {query.isRefetchError ? (
            <Alert severity="error" role="alert">
              {t('admin.money.loadFailed')}: {errorText(query.error)}
            </Alert>
          ) : null}
          <DisputesSection disputes={query.data.disputes} loadedAt={query.dataUpdatedAt} />
          <OwedSection owed={query.data.owed} />
          <FindingsSection findings={query.data.findings} />
        </Box>
      ) : query.isError ? (
        <StatusMessage
          role="alert"
          tone="error"
          icon={<CloudOffRoundedIcon />}
          title={t('admin.money.loadFailed')}
          body={errorText(query.error)}
          action={<RetryButton onClick={retry} busy={query.isFetching} />}
        />
      ) : (
        <MoneySkeleton />
      )}
    </Container>
  );
}

function MoneySkeleton() {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t('admin.money.loading')} sx={{ display: 'grid', gap: 4 }}>
      {[0, 1, 2].map((key) => (
        <Box key={key} aria-hidden sx={{ display: 'grid', gap: 1 }}>
          <Skeleton width="30%" height={36} />
          <Skeleton variant="rounded" height={key === 0 ? 140 : 96} />
        </Box>
      ))}
    </Box>
  );
}

/** A part of the page: its heading names the region and the table or list in it. */
function MoneySection({
  title,
  intro,
  empty,
  count,
  children,
}: {
  title: string;
  intro: string;
  empty: string;
  count: number;
  children: (headingId: string) => ReactNode;
}) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ display: 'grid', gap: 1.5 }}>
      <Box>
        <Typography id={headingId} variant="h5" component="h2">
          {title}
        </Typography>
        {count > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {intro}
          </Typography>
        ) : null}
      </Box>
      {count === 0 ? (
        <Paper variant="outlined" sx={{ p: 2, borderStyle: 'dashed' }}>
          <Typography color="text.secondary">{empty}</Typography>
        </Paper>
      ) : (
        children(headingId)
      )}
    </Box>
  );
}

/** A member's @nick, linked to their profile. */
function NickLink({ nick }: { nick: string }) {
  return (
    <Link component={RouterLink} to={`/${nick}`}>
      @{nick}
    </Link>
  );
}

/** An order, linked to its page; the id wraps anywhere (it is long and has no spaces). */
function OrderLink({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  if (orderId === '') return <>—</>;
  return (
    <Link
      component={RouterLink}
      to={orderPath(orderId)}
      aria-label={t('admin.money.orderLabel', { id: orderId })}
      sx={{ fontFamily: 'monospace', fontSize: '0.8125rem', wordBreak: 'break-all' }}
    >
      {orderId}
    </Link>
  );
}

/** The disputed order: its item's title links to it, its id below (support searches by it). */
function DisputedOrder({ row }: { row: DisputeRow }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Link
        component={RouterLink}
        to={orderPath(row.order_id)}
        sx={{ overflowWrap: 'anywhere', fontWeight: 600 }}
      >
        {row.item_title}
      </Link>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ display: 'block', fontFamily: 'monospace', wordBreak: 'break-all' }}
      >
        {row.order_id}
      </Typography>
    </Box>
  );
}

/** A Stripe id (ch_…, tr_…), wrapping anywhere. */
function StripeRef({ value }: { value: string }) {
  return (
    <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
      {value}
    </Box>
  );
}

function DisputesSection({
  disputes,
  loadedAt,
}: {
  disputes: MoneyOverview['disputes'];
  /** When the overview was read: a deadline before it is overdue. */
  loadedAt: number;
}) {
  const { t } = useTranslation();
  const words = useDisputeText();
  const rows = [...disputes].sort(byDeadline);
  const columns: MoneyColumn<DisputeRow>[] = [
    {
      key: 'order',
      label: t('admin.money.order'),
      cell: (row) => <DisputedOrder row={row} />,
    },
    {
      key: 'seller',
      label: t('admin.money.disputes.seller'),
      cell: (row) => <NickLink nick={row.seller.nick} />,
    },
    {
      key: 'buyer',
      label: t('admin.money.disputes.buyer'),
      cell: (row) => <NickLink nick={row.buyer.nick} />,
    },
    {
      key: 'amount',
      label: t('admin.money.disputes.amount'),
      cell: (row) => priceText(row.dispute.amount, row.dispute.currency),
      numeric: true,
    },
    {
      key: 'reason',
      label: t('admin.money.disputes.reason'),
      cell: (row) => words.reason(row.dispute.reason),
    },
    {
      key: 'deadline',
      label: t('admin.money.disputes.deadline'),
      nowrap: true,
      cell: (row) => {
        const due = row.dispute.evidence_due_by;
        if (due === null) return t('admin.money.disputes.noDeadline');
        return Date.parse(due) < loadedAt ? (
          <Box component="span" sx={{ color: 'error.main', fontWeight: 600 }}>
            {t('admin.money.disputes.overdue', { date: dateText(due) })}
          </Box>
        ) : (
          dateText(due)
        );
      },
    },
    {
      key: 'stripeStatus',
      label: t('admin.money.disputes.stripeStatus'),
      cell: (row) => stripeStatusText(t, row.dispute.stripe_status),
    },
  ];
  return (
    <MoneySection
      title={t('admin.money.disputes.title')}
      intro={t('admin.money.disputes.intro')}
      empty={t('admin.money.disputes.empty')}
      count={rows.length}
    >
      {(headingId) => (
        <MoneyTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.dispute.id}
          labelledBy={headingId}
        />
      )}
    </MoneySection>
  );
}

function OwedSection({ owed }: { owed: MoneyOverview['owed'] }) {
  const { t } = useTranslation();
  return (
    <MoneySection
      title={t('admin.money.owed.title')}
      intro={t('admin.money.owed.intro')}
      empty={t('admin.money.owed.empty')}
      count={owed.length}
    >
      {(headingId) => (
        <Box
          component="ul"
          aria-labelledby={headingId}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}
        >
          {owed.map((account) => (
            <li key={`${account.user_id}-${account.currency}`}>
              <OwedAccountCard account={account} />
            </li>
          ))}
        </Box>
      )}
    </MoneySection>
  );
}

function OwedAccountCard({ account }: { account: OwedAccount }) {
  const { t } = useTranslation();
  const titleId = useId();
  const who =
    account.nick === null
      ? t('admin.money.owed.unknownNick', { id: account.user_id })
      : `@${account.nick}`;
  const columns: MoneyColumn<OwedLine>[] = [
    {
      key: 'reason',
      label: t('admin.money.disputes.reason'),
      cell: (line) => owedReasonText(t, line.reason),
    },
    {
      key: 'amount',
      label: t('admin.money.owed.amount'),
      cell: (line) => priceText(line.amount, account.currency),
      numeric: true,
    },
    {
      key: 'order',
      label: t('admin.money.order'),
      cell: (line) => <OrderLink orderId={line.order_id} />,
    },
    {
      key: 'ref',
      label: t('admin.money.owed.ref'),
      cell: (line) => <StripeRef value={line.ref} />,
    },
    {
      key: 'at',
      label: t('admin.money.owed.at'),
      cell: (line) => dateText(line.at),
      nowrap: true,
    },
  ];
  return (
    <Paper
      component="article"
      variant="outlined"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 2.5 }, display: 'grid', gap: 1.5, minWidth: 0 }}
    >
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'baseline',
          gap: 1,
          flexWrap: 'wrap',
        }}
      >
        <Typography id={titleId} variant="h6" component="h3" sx={{ overflowWrap: 'anywhere' }}>
          {account.nick === null ? who : <NickLink nick={account.nick} />}
        </Typography>
        <Typography sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums' }}>
          {t('admin.money.owed.owes', { amount: priceText(account.amount, account.currency) })}
        </Typography>
      </Box>
      {account.lines.length > 0 ? (
        <MoneyTable
          columns={columns}
          rows={account.lines}
          rowKey={(line) => line.ref}
          label={t('admin.money.owed.lines', { who })}
        />
      ) : null}
    </Paper>
  );
}

function FindingsSection({ findings }: { findings: MoneyOverview['findings'] }) {
  const { t } = useTranslation();
  const columns: MoneyColumn<Finding>[] = [
    {
      key: 'order',
      label: t('admin.money.order'),
      cell: (row) => <OrderLink orderId={row.order_id} />,
    },
    {
      key: 'ref',
      label: t('admin.money.findings.ref'),
      cell: (row) => <StripeRef value={row.ref} />,
    },
    {
      key: 'code',
      label: t('admin.money.findings.code'),
      cell: (row) => findingText(t, row.code),
    },
    {
      key: 'detail',
      label: t('admin.money.findings.detail'),
      cell: (row) => <Box sx={{ overflowWrap: 'anywhere' }}>{row.detail}</Box>,
    },
    {
      key: 'foundAt',
      label: t('admin.money.findings.foundAt'),
      cell: (row) => dateText(row.found_at),
      nowrap: true,
    },
  ];
  return (
    <MoneySection
      title={t('admin.money.findings.title')}
      intro={t('admin.money.findings.intro')}
      empty={t('admin.money.findings.empty')}
      count={findings.length}
    >
      {(headingId) => (
        <MoneyTable
          columns={columns}
          rows={findings}
          rowKey={(row) => `${row.order_id}-${row.ref}-${row.code}`}
          labelledBy={headingId}
        />
      )}
    </MoneySection>
  );
}
