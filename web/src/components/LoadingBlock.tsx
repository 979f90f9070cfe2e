import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';

/** A part of a form still loading: a rounded skeleton of its height, announced by its label. */
export function LoadingBlock({ label, height }: { label: string; height: number }) {
  return (
    <Box role="status" aria-label={label}>
      <Skeleton variant="rounded" height={height} />
    </Box>
  );
}

/** A part of a form that could not be loaded, with a retry (the rest of the form stays usable). */
export function RetryAlert({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="warning"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
