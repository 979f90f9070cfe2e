import Box from '@mui/material/Box';
import { UI } from '@shared/constants/limits';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useAuth } from '../../lib/auth';
import { useSwitches } from '../../lib/config';
import { lazyOverlay } from '../../lib/lazyOverlay';
import { useViewport } from '../../lib/viewport';
import type { NavDrawerProps } from './NavDrawer';
import { NavList } from './NavList';
import { NAV_ITEMS, visibleNavItems, type NavItem } from './navItems';

export const SIDEBAR_WIDTH = UI.sideBarWidth;
export { DRAWER_ID } from './navItems';

/** The phone's drawer: loaded when first opened, or earlier once the page is idle (lazyOverlay). */
const NavDrawer = lazyOverlay<NavDrawerProps>(async () => (await import('./NavDrawer')).NavDrawer);

function useNavItems(): NavItem[] {
  const switches = useSwitches();
  const { user } = useAuth();
  return visibleNavItems(NAV_ITEMS, { switches, user });
}

/**
 * The side bar: permanent and 210 px wide from 1265 px; below that a drawer opened from the top
 * bar's menu button.
 */
export function SideBar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const items = useNavItems();
  const { wide } = useViewport();
  // The drawer is mounted from its first opening on (then it stays, for its closing transition).
  const [drawerUsed, setDrawerUsed] = useState(open);
  if (open && !drawerUsed) setDrawerUsed(true);
  // Width unknown (prerendered markup being hydrated, the drawer closed): the permanent side bar,
  // which CSS shows from 1265 px only.
  return wide !== false ? (
    <Box
      sx={{
        display: wide === null ? { xs: 'none', lg: 'block' } : undefined,
        width: SIDEBAR_WIDTH,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <Box
        component="nav"
        aria-label={t('nav.label')}
        sx={{
          position: 'sticky',
          top: UI.topBarHeightFromSm,
          maxHeight: `calc(100vh - ${UI.topBarHeightFromSm}px)`,
          overflowY: 'auto',
        }}
      >
        <NavList items={items} />
      </Box>
    </Box>
  ) : drawerUsed ? (
    <NavDrawer open={open} onClose={onClose} items={items} />
  ) : null;
}
