import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useConfig } from '../../../lib/config';
import { DEFAULT_SWITCHES } from '@shared/switches';
import { NotFoundPage } from '../../../components/ErrorPage';

/**
 * The password pages exist only while the passwordLogin switch is on: otherwise the 404 page.
 * While /api/config loads a spinner shows (neither page nor 404 flashes).
 */
export function PasswordSwitchGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { data, isPending } = useConfig();
  if (isPending) {
    return (
      <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  }
  const on = (data?.switches ?? DEFAULT_SWITCHES).passwordLogin;
  return on ? children : <NotFoundPage />;
}
