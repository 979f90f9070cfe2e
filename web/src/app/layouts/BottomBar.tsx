import AccountCircleRoundedIcon from '@mui/icons-material/AccountCircleRounded';
import AccountBalanceWalletRoundedIcon from '@mui/icons-material/AccountBalanceWalletRounded';
import NotificationsRoundedIcon from '@mui/icons-material/NotificationsRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import VerifiedUserRoundedIcon from '@mui/icons-material/VerifiedUserRounded';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useAuth } from '../../lib/auth';
import { firstSegment } from './navItems';

export const BOTTOM_BAR_HEIGHT = 64;

interface BottomAction {
  key: 'market' | 'verify' | 'wallet' | 'notifications' | 'account';
  to: string;
  icon: ReactNode;
}

/**
 * The mobile bottom bar (below 768 px), for logged-in users only (spec 001 §2): verify (or
 * market), wallet, notifications (not for guest-flagged users) and account.
 */
export function BottomBar() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (!user) return null;
  const actions: BottomAction[] = [
    user.verified
      ? { key: 'market', to: '/market/preview/marketplace', icon: <StorefrontRoundedIcon /> }
      : { key: 'verify', to: '/account/settings/general', icon: <VerifiedUserRoundedIcon /> },
    { key: 'wallet', to: '/account/wallet', icon: <AccountBalanceWalletRoundedIcon /> },
    ...(user.guest
      ? []
      : [
          {
            key: 'notifications',
            to: '/account/activity',
            icon: <NotificationsRoundedIcon />,
          } as const,
        ]),
    { key: 'account', to: '/account/profile', icon: <AccountCircleRoundedIcon /> },
  ];
  const current = actions.find((action) => firstSegment(action.to) === firstSegment(pathname));
  return (
    <Paper
      component="nav"
      aria-label={t('bottomBar.label')}
      elevation={8}
      sx={{
        display: { xs: 'block', sm: 'none' },
        position: 'fixed',
        insetInline: 0,
        bottom: 0,
        zIndex: (theme) => theme.zIndex.appBar,
        borderRadius: 0,
        pb: 'env(safe-area-inset-bottom)',
      }}
    >
      <BottomNavigation showLabels value={current?.key ?? false} sx={{ height: BOTTOM_BAR_HEIGHT }}>
        {actions.map((action) => (
          <BottomNavigationAction
            key={action.key}
            value={action.key}
            label={t(`bottomBar.${action.key}`)}
            icon={action.icon}
            component={RouterLink}
            to={action.to}
          />
        ))}
      </BottomNavigation>
    </Paper>
  );
}
