import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from '../../../lib/i18n';
import { Navigate, Outlet } from 'react-router';
import { useAuth } from '../../../lib/auth';

function SessionLoading() {
  const { t } = useTranslation();
  return (
    <Box role="status" sx={{ flex: 1, display: 'grid', placeItems: 'center', py: 10 }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}

/** /account/* and checkout: visitors are sent to / (spec 001 §2). */
export function RequireUser() {
  const { status } = useAuth();
  if (status === 'loading') return <SessionLoading />;
  if (status !== 'user') return <Navigate to="/" replace />;
  return <Outlet />;
}

/** Login and sign-up: a logged-in user is sent to / (spec 001 §2). */
export function RequireGuest() {
  const { status, landing } = useAuth();
  if (status === 'user') return <Navigate to={landing ?? '/'} replace />;
  return <Outlet />;
}
