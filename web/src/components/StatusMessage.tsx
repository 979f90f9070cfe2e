import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import RefreshRoundedIcon from '@mui/icons-material/RefreshRounded';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';

interface StatusMessageProps {
  icon: ReactNode;
  title: string;
  body?: string;
  action?: ReactNode;
  tone?: 'neutral' | 'error';
  role?: 'status' | 'alert';
}

/** A centred empty or error state: icon, title, text and an optional action. */
export function StatusMessage({
  icon,
  title,
  body,
  action,
  tone = 'neutral',
  role,
}: StatusMessageProps) {
  return (
    <Box
      role={role}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1.5,
        py: { xs: 6, sm: 8 },
        px: 3,
        border: 1,
        borderStyle: 'dashed',
        borderColor: tone === 'error' ? 'error.light' : 'divider',
        borderRadius: '20px',
        bgcolor: 'background.paper',
      }}
    >
      <Box
        aria-hidden
        sx={{
          width: 64,
          height: 64,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          bgcolor: tone === 'error' ? 'rgba(211, 47, 47, 0.08)' : 'rgba(79, 70, 229, 0.08)',
          color: tone === 'error' ? 'error.main' : 'primary.main',
          '& svg': { fontSize: 32 },
        }}
      >
        {icon}
      </Box>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {body ? (
        <Typography color="text.secondary" sx={{ maxWidth: 420 }}>
          {body}
        </Typography>
      ) : null}
      {action ? <Box sx={{ mt: 1 }}>{action}</Box> : null}
    </Box>
  );
}

/** The retry button of error states. */
export function RetryButton({ onClick, busy = false }: { onClick: () => void; busy?: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="contained"
      startIcon={<RefreshRoundedIcon />}
      onClick={onClick}
      disabled={busy}
    >
      {t('common.retry')}
    </Button>
  );
}
