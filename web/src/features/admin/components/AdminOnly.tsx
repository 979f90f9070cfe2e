import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NotFoundPage } from '../../../components/ErrorPage';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useTranslation } from '../../../lib/i18n';
import { adminKeys, fetchSession } from '../api/admin';

/**
 * Support's pages are for admins only (GET /api/session `admin`). Anyone else, guests included,
 * gets the 404 page: nothing tells them the page exists, and the page asks nothing of the API.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  const session = useQuery({
    queryKey: adminKeys.session(user?.id ?? '-'),
    queryFn: ({ signal }) => fetchSession(signal),
    enabled: status === 'user',
    staleTime: 60_000,
  });
  if (status === 'loading' || (status === 'user' && session.isPending)) {
    // Neutral until the answer: no title, nothing that says what the page is.
    return <Box aria-busy="true" sx={{ minHeight: '100vh' }} />;
  }
  if (status !== 'user') return <NotFoundPage />;
  if (session.isError) {
    const refused = session.error instanceof ApiError && session.error.status < 500;
    if (refused) return <NotFoundPage />;
    return <SessionFailed onRetry={() => void session.refetch()} busy={session.isFetching} />;
  }
  if (!session.data?.admin) return <NotFoundPage />;
  return children;
}

function SessionFailed({ onRetry, busy }: { onRetry: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Container maxWidth="sm" sx={{ py: 6 }}>
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('errorPage.generic.title')}
        action={<RetryButton onClick={onRetry} busy={busy} />}
      />
    </Container>
  );
}
