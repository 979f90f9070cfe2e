import Box from '@mui/material/Box';
import { Outlet } from 'react-router';
import { MAIN_ID } from './SkipLink';

/** No bars at all (pages opened in a new window, such as the provider redirect). */
export function EmptyLayout() {
  return (
    <Box component="main" id={MAIN_ID} sx={{ minHeight: '100vh' }}>
      <Outlet />
    </Box>
  );
}
