import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export type ResultTone = 'success' | 'info' | 'warning' | 'error' | 'neutral';

const TONES: Record<ResultTone, { color: string; background: string }> = {
  success: { color: 'success.main', background: 'rgba(46, 125, 50, 0.1)' },
  info: { color: 'primary.main', background: 'rgba(79, 70, 229, 0.08)' },
  warning: { color: 'warning.dark', background: 'rgba(237, 108, 2, 0.1)' },
  error: { color: 'error.main', background: 'rgba(211, 47, 47, 0.08)' },
  neutral: { color: 'text.secondary', background: 'rgba(0, 0, 0, 0.05)' },
};

/**
 * A result page's one card (the Stripe return pages, the unsubscribe page): an icon, the page's
 * heading, a text and the way on. While `busy`, a spinner stands in for the icon and the card is a
 * live status; `live` announces it when it appears (the outcome of a button).
 */
export function ResultCard({
  icon,
  tone = 'info',
  title,
  body,
  actions,
  busy = false,
  live = false,
  children,
}: {
  icon?: ReactNode;
  tone?: ResultTone;
  title: string;
  body?: ReactNode;
  actions?: ReactNode;
  busy?: boolean;
  live?: boolean;
  children?: ReactNode;
}) {
  const colors = TONES[tone];
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper
        variant="outlined"
        role={busy || live ? 'status' : undefined}
        aria-busy={busy || undefined}
        sx={{
          p: { xs: 3, sm: 5 },
          borderRadius: 4,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 2,
        }}
      >
        <Box
          aria-hidden
          sx={{
            width: 72,
            height: 72,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: busy ? 'transparent' : colors.background,
            color: colors.color,
            '& svg': { fontSize: 36 },
          }}
        >
          {busy ? <CircularProgress /> : icon}
        </Box>
        <Typography
          variant="h5"
          component="h1"
          sx={{ fontWeight: 700, fontSize: { xs: '1.4rem', sm: '1.6rem' } }}
        >
          {title}
        </Typography>
        {body ? (
          <Typography color="text.secondary" sx={{ maxWidth: 440 }}>
            {body}
          </Typography>
        ) : null}
        {children}
        {actions ? (
          <Box
            sx={{
              mt: 1,
              display: 'flex',
              gap: 1.5,
              flexWrap: 'wrap',
              justifyContent: 'center',
              width: { xs: '100%', sm: 'auto' },
              '& > *': { flex: { xs: '1 1 100%', sm: '0 0 auto' } },
            }}
          >
            {actions}
          </Box>
        ) : null}
      </Paper>
    </Container>
  );
}
