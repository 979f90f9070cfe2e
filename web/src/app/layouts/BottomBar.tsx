import AccountCircleRoundedIcon from '@mui/icons-material/AccountCircleRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import VerifiedUserRoundedIcon from '@mui/icons-material/VerifiedUserRounded';
import BottomNavigation from '@mui/material/BottomNavigation';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Paper from '@mui/material/Paper';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link as RouterLink, useLocation } from 'react-router';
import { AccountMenu } from '../../features/accounts/components/AccountMenu';
import { NotificationsBellSlot } from '../../features/notifications/NotificationsBellSlot';
import { useAuth } from '../../lib/auth';
import { useViewport } from '../../lib/viewport';
import { NAV_ITEMS, USER_ACTIONS } from './navItems';

export const BOTTOM_BAR_HEIGHT = 64;

export interface BottomLinkAction {
  key: 'market' | 'verify' | 'wallet';
  to: string;
  /** The action is the current one on this path and its children. */
  match: string;
  icon: ReactNode;
  /** Whether the target page exists in this build (hidden until then). */
  ready: boolean;
}

/** The bell: it opens the notifications dialog rather than a page. */
export interface BottomBellAction {
  key: 'notifications';
  ready: boolean;
}

export type BottomAction = BottomLinkAction | BottomBellAction;

const marketReady = NAV_ITEMS.find((item) => item.key === 'market')?.ready ?? false;

/** The link actions for a user, in the spec's order (the account button follows them). */
export function bottomActions(user: { verified: boolean; guest: boolean }): BottomAction[] {
  const actions: BottomAction[] = [
    user.verified
      ? {
          key: 'market',
          to: '/market/preview/marketplace',
          match: '/market',
          icon: <StorefrontRoundedIcon />,
          ready: marketReady,
        }
      : {
          key: 'verify',
          ...USER_ACTIONS.verify,
          match: USER_ACTIONS.verify.to,
          icon: <VerifiedUserRoundedIcon />,
        },
    { key: 'wallet', ...USER_ACTIONS.wallet, match: USER_ACTIONS.wallet.to },
    ...(user.guest ? [] : [{ key: 'notifications', ...USER_ACTIONS.notifications } as const]),
  ];
  return actions;
}

/** Whether `pathname` is `to` or one of its children ('/account/wallet/mytokens' for the wallet). */
function isWithin(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/**
 * The phone bottom bar (below 768 px), for logged-in users only (spec 001 §2): verify (or
 * market), wallet, notifications (not for guest-flagged users) and account, which opens the
 * account menu. Actions whose pages are not built yet stay hidden.
 */
export function BottomBar({ onNavigate }: { onNavigate?: () => void } = {}) {
  const { user } = useAuth();
  const { phone } = useViewport();
  if (!user || !phone) return null;
  return <PhoneBar user={user} onNavigate={onNavigate} />;
}

function PhoneBar({
  user,
  onNavigate,
}: {
  user: { verified: boolean; guest: boolean };
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const actions = bottomActions(user).filter((action) => action.ready);
  const current = actions.find(
    (action) => action.key !== 'notifications' && isWithin(pathname, action.match),
  );
  return (
    <Paper
      component="nav"
      aria-label={t('bottomBar.label')}
      elevation={8}
      sx={{
        position: 'fixed',
        insetInline: 0,
        bottom: 0,
        zIndex: (theme) => theme.zIndex.appBar,
        borderRadius: 0,
        pb: 'env(safe-area-inset-bottom)',
      }}
    >
      <BottomNavigation
        showLabels
        value={anchor ? 'account' : (current?.key ?? false)}
        sx={{ height: BOTTOM_BAR_HEIGHT }}
      >
        {actions.map((action) =>
          action.key === 'notifications' ? (
            <NotificationsBellSlot
              key={action.key}
              value={action.key}
              variant="bottom"
              onNavigate={onNavigate}
            />
          ) : (
            <BottomNavigationAction
              key={action.key}
              value={action.key}
              label={t(`bottomBar.${action.key}`)}
              icon={action.icon}
              component={RouterLink}
              to={action.to}
            />
          ),
        )}
        <BottomNavigationAction
          value="account"
          label={t('bottomBar.account')}
          icon={<AccountCircleRoundedIcon />}
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-haspopup="menu"
          aria-expanded={Boolean(anchor)}
          aria-controls={anchor ? menuId : undefined}
        />
      </BottomNavigation>
      <AccountMenu id={menuId} anchorEl={anchor} onClose={() => setAnchor(null)} />
    </Paper>
  );
}
