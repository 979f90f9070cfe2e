import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from '../lib/i18n';

/** The brand mark: a faceted token. Decorative; the wordmark carries the name. */
export function LogoMark({ size = 32 }: { size?: number }) {
  const gradientId = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366F1" />
          <stop offset="1" stopColor="#7C3AED" />
        </linearGradient>
      </defs>
      <rect width="48" height="48" rx="13" fill={`url(#${gradientId})`} />
      <path
        d="M24 9.5 36.5 16.75v14.5L24 38.5 11.5 31.25v-14.5Z"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <path d="M24 17.5 30 21v6l-6 3.5-6-3.5v-6Z" fill="#fff" />
    </svg>
  );
}

export function Logo({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.25 }}>
      <LogoMark size={compact ? 28 : 34} />
      <Typography
        component="span"
        sx={{
          fontWeight: 800,
          fontSize: compact ? '1.1rem' : '1.25rem',
          letterSpacing: '-0.02em',
          color: 'text.primary',
        }}
      >
        {t('app.name')}
      </Typography>
    </Box>
  );
}
