import Box from '@mui/material/Box';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { OfflineWarning } from '../../components/OfflineWarning';
import { useAuth } from '../../lib/auth';
import { useViewport } from '../../lib/viewport';
import { BOTTOM_BAR_HEIGHT, BottomBar } from './BottomBar';
import { Footer } from './Footer';
import { SideBar } from './SideBar';
import { MAIN_ID, SkipLink } from './SkipLink';
import { TopBar } from './TopBar';

/** Top bar, side bar, bottom bar on mobile when logged in, offline warning (spec 000 §2). */
export function DefaultLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  const { user } = useAuth();
  const { phone } = useViewport();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <TopBar
        onMenuClick={() => setMenuOpen(true)}
        menuOpen={menuOpen}
        onNavigate={() => setMenuOpen(false)}
      />
      <OfflineWarning />
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <SideBar open={menuOpen} onClose={() => setMenuOpen(false)} />
        <Box
          sx={{
            flex: 1,
            minWidth: 0,
            display: 'flex',
            flexDirection: 'column',
            // Room for the phone bottom bar (and the phone's home indicator under it).
            pb: user && phone ? `calc(${BOTTOM_BAR_HEIGHT}px + env(safe-area-inset-bottom))` : 0,
          }}
        >
          <Box component="main" id={MAIN_ID} tabIndex={-1} sx={{ flex: 1, outline: 'none' }}>
            <Outlet />
          </Box>
          <Footer />
        </Box>
      </Box>
      <BottomBar onNavigate={() => setMenuOpen(false)} />
    </Box>
  );
}
