import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import FactCheckRoundedIcon from '@mui/icons-material/FactCheckRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { PendingOffering, ValidateOfferingBody } from '@shared/schemas/offerings';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { errorCodeOf } from '../../../lib/api';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { getPendingOfferings, offeringKeys, validateOffering } from '../../../lib/offerings';
import { AdminNav } from './AdminNav';
import { AdminOnly } from './AdminOnly';
import { PendingOfferingRow } from './PendingOfferingRow';
import { RejectDialog } from './RejectDialog';
import adminTexts from '../../../locales/en.admin.json';

addTranslations({ admin: adminTexts });

/** Someone else decided first: the offering left the queue all the same. */
const NOT_PENDING = 'market.offering.errors.not_pending';

/**
 * `/admin/offerings`: support's queue, for admins only (GET /api/session `admin`). Anyone else,
 * guests included, gets the 404 page: nothing tells them the page exists.
 */
export function AdminOfferingsRoute() {
  return (
    <AdminOnly>
      <AdminOfferingsPage />
    </AdminOnly>
  );
}

type Notice = { severity: 'success' | 'warning'; text: string };

interface Decision {
  offering: PendingOffering;
  body: ValidateOfferingBody;
}

/**
 * The pending offerings, oldest first, 10 at a time. A decision takes the row off at once; if the
 * call fails the row comes back with the reason, unless someone else decided first (not_pending),
 * when it stays off and the page says so.
 */
export function AdminOfferingsPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('admin.offerings.title'), app: t('app.name') }),
    noIndex: true,
  });
  const query = useInfiniteQuery({
    queryKey: offeringKeys.pending,
    queryFn: ({ pageParam }) => getPendingOfferings(pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  /** Rows taken off (decided, or being decided). */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [rowErrors, setRowErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [notice, setNotice] = useState<Notice | null>(null);
  const [rejecting, setRejecting] = useState<PendingOffering | null>(null);

  const setRowError = (id: string, text: string | null) =>
    setRowErrors((current) => {
      const next = new Map(current);
      if (text === null) next.delete(id);
      else next.set(id, text);
      return next;
    });
  const setGoneFor = (id: string, off: boolean) =>
    setGone((current) => {
      const next = new Set(current);
      if (off) next.add(id);
      else next.delete(id);
      return next;
    });

  const decide = useMutation({
    mutationFn: ({ offering, body }: Decision) => validateOffering(offering.id, body),
    onMutate: ({ offering }) => {
      setGoneFor(offering.id, true);
      setRowError(offering.id, null);
    },
    onSuccess: (_answer, { offering, body }) => {
      const title = offering.item.title;
      setNotice({
        severity: 'success',
        text:
          body.decision === 'approve'
            ? t('admin.offerings.approved', { title })
            : t('admin.offerings.rejected', { title }),
      });
    },
    onError: (error, { offering }) => {
      const title = offering.item.title;
      if (errorCodeOf(error) === NOT_PENDING) {
        setNotice({ severity: 'warning', text: t('admin.offerings.decidedElsewhere', { title }) });
        return;
      }
      setGoneFor(offering.id, false);
      setRowError(offering.id, t('admin.offerings.failed', { title, reason: errorText(error) }));
    },
  });

  const offerings = (query.data?.pages.flatMap((page) => page.items) ?? []).filter(
    (offering) => !gone.has(offering.id),
  );

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <AdminNav current="offerings" />
      <Typography variant="h4" component="h1">
        {t('admin.offerings.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
        {t('admin.offerings.intro')}
      </Typography>
      <Box role="status" aria-live="polite" sx={{ mb: notice ? 2 : 0 }}>
        {notice ? (
          <Alert severity={notice.severity} onClose={() => setNotice(null)}>
            {notice.text}
          </Alert>
        ) : null}
      </Box>
      {query.isPending ? (
        <Box
          role="status"
          aria-label={t('admin.offerings.loading')}
          sx={{ display: 'grid', gap: 2 }}
        >
          {[0, 1].map((key) => (
            <Paper key={key} variant="outlined" sx={{ p: 3 }} aria-hidden>
              <Skeleton width="40%" height={36} />
              <Skeleton width="80%" />
              <Skeleton variant="rounded" height={120} sx={{ mt: 2 }} />
            </Paper>
          ))}
        </Box>
      ) : query.isLoadingError ? (
        <StatusMessage
          role="alert"
          tone="error"
          icon={<CloudOffRoundedIcon />}
          title={t('admin.offerings.loadFailed')}
          body={errorText(query.error)}
          action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
        />
      ) : offerings.length === 0 && !query.hasNextPage ? (
        <StatusMessage
          role="status"
          icon={<FactCheckRoundedIcon />}
          title={t('admin.offerings.empty')}
          body={t('admin.offerings.emptyBody')}
        />
      ) : (
        <Box
          component="ul"
          aria-label={t('admin.offerings.list')}
          sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}
        >
          {offerings.map((offering) => (
            <li key={offering.id}>
              <PendingOfferingRow
                offering={offering}
                error={rowErrors.get(offering.id) ?? null}
                onApprove={() => decide.mutate({ offering, body: { decision: 'approve' } })}
                onReject={() => setRejecting(offering)}
              />
            </li>
          ))}
        </Box>
      )}
      {query.isFetchNextPageError ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorText(query.error)}
        </Alert>
      ) : null}
      {query.hasNextPage ? (
        <Box sx={{ mt: 3, textAlign: 'center' }}>
          <Button onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t('admin.offerings.loadMore')}
          </Button>
        </Box>
      ) : null}
      {rejecting ? (
        <RejectDialog
          title={rejecting.item.title}
          onClose={() => setRejecting(null)}
          onConfirm={(reason) => {
            decide.mutate({ offering: rejecting, body: { decision: 'reject', reason } });
            setRejecting(null);
          }}
        />
      ) : null}
    </Container>
  );
}
