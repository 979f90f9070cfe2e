import AddRoundedIcon from '@mui/icons-material/AddRounded';
import MenuRoundedIcon from '@mui/icons-material/MenuRounded';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import { alpha } from '@mui/material/styles';
import { UI } from '@shared/constants/limits';
import { useTranslation } from '../../lib/i18n';
import { Link as RouterLink, useLocation } from 'react-router';
import { Logo } from '../../components/Logo';
import VerifiedUserRoundedIcon from '@mui/icons-material/VerifiedUserRounded';
import { AccountButton } from '../../features/accounts/components/AccountMenu';
import { NotificationsBellSlot } from '../../features/notifications/NotificationsBellSlot';
import { useAuth, type SessionUser } from '../../lib/auth';
import { PATHS } from '../../lib/paths';
import { useViewport } from '../../lib/viewport';
import { USER_ACTIONS } from './navItems';
import { DRAWER_ID } from './navItems';

/** Login and Create for guests (spec 001 §2); Create is hidden while on sign-up. */
function GuestActions() {
  const { t } = useTranslation();
  const { openLogin } = useAuth();
  const { pathname } = useLocation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0.75, sm: 1.25 } }}>
      <Button
        variant="text"
        color="inherit"
        onClick={() => openLogin()}
        sx={{ fontWeight: 600, px: { xs: 1.25, sm: 2 } }}
      >
        {t('topBar.login')}
      </Button>
      {pathname.startsWith(PATHS.signup) ? null : (
        <Button
          variant="contained"
          startIcon={<AddRoundedIcon />}
          onClick={() => openLogin(USER_ACTIONS.mint.to)}
          aria-label={t('topBar.createLabel')}
          sx={{ px: { xs: 1.5, sm: 2.25 }, '& .MuiButton-startIcon': { mr: { xs: 0.5, sm: 1 } } }}
        >
          {t('topBar.create')}
        </Button>
      )}
    </Box>
  );
}

interface TopBarProps {
  /** Shows the menu button (below 1265 px) that opens the side bar drawer. */
  onMenuClick?: () => void;
  menuOpen?: boolean;
  /** A notification's target was opened from the bell (the layout closes its drawer). */
  onNavigate?: () => void;
}

/**
 * The logged-in actions (spec 001 §2): verify or create, wallet, notifications (not for
 * guest-flagged users) and the account button. On phones the bottom bar carries wallet,
 * notifications and account, so the top bar keeps only Create there. Actions whose pages are not
 * built yet stay hidden.
 */
function UserActions({ user, onNavigate }: { user: SessionUser; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { phone } = useViewport();
  const primary = user.verified ? USER_ACTIONS.mint : USER_ACTIONS.verify;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0.75, sm: 1 } }}>
      {primary.ready ? (
        <Button
          component={RouterLink}
          to={primary.to}
          variant="contained"
          startIcon={user.verified ? <AddRoundedIcon /> : <VerifiedUserRoundedIcon />}
          aria-label={user.verified ? t('topBar.createLabel') : undefined}
          sx={{ px: { xs: 1.5, sm: 2.25 }, '& .MuiButton-startIcon': { mr: { xs: 0.5, sm: 1 } } }}
        >
          {user.verified ? t('topBar.create') : t('topBar.verify')}
        </Button>
      ) : null}
      {phone ? null : (
        <>
          {USER_ACTIONS.wallet.ready ? (
            <Button
              component={RouterLink}
              to={USER_ACTIONS.wallet.to}
              color="inherit"
              startIcon={USER_ACTIONS.wallet.icon}
              sx={{ fontWeight: 600 }}
            >
              {t('topBar.wallet')}
            </Button>
          ) : null}
          {!user.guest && USER_ACTIONS.notifications.ready ? (
            <NotificationsBellSlot variant="icon" onNavigate={onNavigate} />
          ) : null}
          <AccountButton />
        </>
      )}
    </Box>
  );
}

/** The top bar: 50 px high, 70 px from 768 px wide. */
export function TopBar({ onMenuClick, menuOpen = false, onNavigate }: TopBarProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { wide } = useViewport();
  return (
    <AppBar
      position="sticky"
      sx={{
        // The border is inside the spec's height (box-sizing: border-box).
        height: { xs: UI.topBarHeight, sm: UI.topBarHeightFromSm },
        bgcolor: alpha('#FFFFFF', 0.92),
        backdropFilter: 'saturate(180%) blur(10px)',
        borderBottom: 1,
        borderColor: 'divider',
        color: 'text.primary',
      }}
    >
      <Box
        sx={{
          height: '100%',
          display: 'flex',
          alignItems: 'center',
          gap: { xs: 0.5, sm: 1 },
          px: { xs: 1, sm: 2, lg: 3 },
        }}
      >
        {onMenuClick && wide !== true ? (
          <IconButton
            onClick={onMenuClick}
            // Width unknown (prerendered markup being hydrated): CSS hides it from 1265 px.
            sx={wide === null ? { display: { lg: 'none' } } : undefined}
            aria-label={t('nav.openMenu')}
            aria-controls={DRAWER_ID}
            aria-expanded={menuOpen}
          >
            <MenuRoundedIcon />
          </IconButton>
        ) : null}
        <Link
          component={RouterLink}
          to="/"
          underline="none"
          aria-label={t('common.homeLink', { app: t('app.name') })}
          sx={{ display: 'inline-flex', borderRadius: 1, p: 0.5 }}
        >
          <Logo compact />
        </Link>
        <Box sx={{ flex: 1 }} />
        {user ? <UserActions user={user} onNavigate={onNavigate} /> : <GuestActions />}
      </Box>
    </AppBar>
  );
}
