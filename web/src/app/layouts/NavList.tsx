import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { useTranslation } from '../../lib/i18n';
import { Link as RouterLink, useLocation } from 'react-router';
import { isNavItemActive, type NavItem } from './navItems';

/** The entries of the side bar and of the phone's navigation drawer. */
export function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
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
