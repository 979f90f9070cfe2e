import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { UI } from '@shared/constants/limits';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { Logo } from '../../components/Logo';
import { useAuth } from '../../lib/auth';
import { useSwitches } from '../../lib/config';
import { useViewport } from '../../lib/viewport';
import { isNavItemActive, NAV_ITEMS, visibleNavItems, type NavItem } from './navItems';

export const SIDEBAR_WIDTH = UI.sideBarWidth;
export const DRAWER_ID = 'app-navigation-drawer';

function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <List sx={{ px: 1.5, py: 2, display: 'grid', gap: 0.5 }}>
      {items.map((item) => {
        const active = isNavItemActive(item, pathname);
        return (
          <ListItem key={item.key} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={item.to}
              selected={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
              sx={{ minHeight: 44 }}
            >
              <ListItemIcon sx={{ minWidth: 36, color: 'text.secondary' }}>
                {item.icon}
              </ListItemIcon>
              <ListItemText
                primary={t(`nav.${item.key}`)}
                slotProps={{ primary: { sx: { fontWeight: active ? 700 : 500 } } }}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}

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
  ) : (
    <Drawer
      id={DRAWER_ID}
      open={open}
      onClose={onClose}
      slotProps={{ paper: { sx: { width: 280, borderRadius: 0 } } }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          height: { xs: UI.topBarHeight, sm: UI.topBarHeightFromSm },
          px: 2,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Logo compact />
        <IconButton onClick={onClose} aria-label={t('nav.closeMenu')}>
          <CloseRoundedIcon />
        </IconButton>
      </Box>
      <Box component="nav" aria-label={t('nav.label')}>
        <NavList items={items} onNavigate={onClose} />
      </Box>
    </Drawer>
  );
}
