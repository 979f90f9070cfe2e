import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { OfflineWarning } from '../../components/OfflineWarning';
import { MAIN_ID, SkipLink } from './SkipLink';
import { TopBar } from './TopBar';

/** Top bar and offline warning only (login, sign-up and recovery pages). */
export function SessionLayout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <SkipLink />
      <TopBar />
      <OfflineWarning />
      <Box
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        sx={{ flex: 1, display: 'flex', flexDirection: 'column', outline: 'none' }}
      >
        <Outlet />
      </Box>
    </Box>
  );
}
