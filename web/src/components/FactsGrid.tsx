import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * A description list of facts (label above, value below): two columns on a phone, three from
 * `sm`; a `wide` fact takes the whole row. The offering panel and support's queue share it.
 */
export function FactsGrid({
  label,
  sx,
  children,
}: {
  /** The list's accessible name, when it needs one. */
  label?: string;
  sx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <Box
      component="dl"
      aria-label={label}
      sx={[
        {
          m: 0,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(3, minmax(0, 1fr))',
          },
          '& dd': { m: 0 },
          '& .wide': { gridColumn: '1 / -1' },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {children}
    </Box>
  );
}

/** One fact of a FactsGrid: its term and its value (kept line breaks, long words wrapped). */
export function Fact({
  term,
  children,
  wide = false,
}: {
  term: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <Box className={wide ? 'wide' : undefined}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {term}
      </Typography>
      <Typography component="dd" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}
