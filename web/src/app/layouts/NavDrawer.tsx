import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import { UI } from '@shared/constants/limits';
import { useTranslation } from '../../lib/i18n';
import { Logo } from '../../components/Logo';
import { NavList } from './NavList';
import { DRAWER_ID, type NavItem } from './navItems';

export interface NavDrawerProps {
  open: boolean;
  onClose: () => void;
  items: NavItem[];
}

/**
 * Below 1265 px, the side bar's entries in a drawer opened from the top bar's menu button. Its own
 * chunk (with MUI's modal machinery): SideBar loads it when first opened, or once the page is idle.
 */
export function NavDrawer({ open, onClose, items }: NavDrawerProps) {
  const { t } = useTranslation();
  return (
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
