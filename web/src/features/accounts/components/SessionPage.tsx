import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** The centred column of the session pages, on a soft brand backdrop. */
export function SessionPage({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        flex: 1,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: { xs: 'flex-start', sm: 'center' },
        px: { xs: 1.5, sm: 3 },
        py: { xs: 3, sm: 6 },
        background:
          'radial-gradient(900px 420px at 50% -10%, rgba(79,70,229,0.10), transparent 70%), radial-gradient(600px 300px at 100% 100%, rgba(15,118,110,0.06), transparent 70%)',
      }}
    >
      {children}
    </Box>
  );
}
