import NotificationsRoundedIcon from '@mui/icons-material/NotificationsRounded';
import Badge from '@mui/material/Badge';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import IconButton from '@mui/material/IconButton';
import { keyframes } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { useAuth } from '../../../lib/auth';
import { setTitleUnreadCount } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { lazyOverlay, OVERLAY_PRELOAD_DELAY_MS } from '../../../lib/lazyOverlay';
import notificationsTexts from '../../../locales/en.notifications.json';
import type { NotificationsBellProps } from '../NotificationsBellSlot';
import { useNotificationCounters } from '../hooks/useNotificationCounters';
import type { NotificationsDialogProps } from './NotificationsDialog';

addTranslations({ notifications: notificationsTexts });

/** The dialog and its list: their own chunk, fetched when first opened (or hovered, focused). */
const NotificationsDialog = lazyOverlay<NotificationsDialogProps>(
  async () => (await import('./NotificationsDialog')).NotificationsDialog,
  { preloadWhenIdle: false },
);
const preloadDialog = () => void NotificationsDialog.preload().catch(() => undefined);

/** The badge shows 99+ above 99 (spec 001 §2). */
export const BADGE_MAX = 99;

const ring = keyframes`
  0%, 60%, 100% { transform: rotate(0deg); }
  8% { transform: rotate(16deg); }
  18% { transform: rotate(-14deg); }
  28% { transform: rotate(10deg); }
  38% { transform: rotate(-8deg); }
  48% { transform: rotate(4deg); }
`;

/** The bell's swing while ringing; with reduced motion, a still bell in the accent colour. */
const ringingSx = {
  color: 'primary.main',
  transformOrigin: '50% 10%',
  animation: `${ring} 1.2s ease-in-out infinite`,
  '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
} as const;

/**
 * The notifications bell (spec 001 §2): the unread count in a badge and in the tab's title; a new
 * notification rings it for 10 s; a click opens the notifications dialog. Only for a signed-in
 * user who is not guest-flagged.
 */
export function NotificationsBell(props: NotificationsBellProps & { onRequestOpen?: () => void }) {
  const { user } = useAuth();
  if (!user || user.guest) return null;
  return <Bell {...props} userId={user.id} />;
}

function Bell({
  userId,
  variant,
  onNavigate,
  openRequested = false,
  showLabel,
  selected,
  value,
}: NotificationsBellProps & { userId: string }) {
  const { t } = useTranslation();
  const { counters, ringing } = useNotificationCounters(userId);
  const unread = counters?.unread ?? 0;
  const [open, setOpen] = useState(openRequested);
  // Mounted from the first opening on (then it stays, for its closing transition).
  const [used, setUsed] = useState(openRequested);
  if (open && !used) setUsed(true);

  useEffect(() => {
    setTitleUnreadCount(unread);
  }, [unread]);
  useEffect(() => () => setTitleUnreadCount(0), []);
  // The dialog's chunk once the page is quiet, so the first opening shows at once.
  useEffect(() => {
    const handle = window.setTimeout(preloadDialog, OVERLAY_PRELOAD_DELAY_MS);
    return () => window.clearTimeout(handle);
  }, []);

  const label =
    unread > 0 ? t('notifications.bellLabel', { count: unread }) : t('notifications.title');
  const icon = (
    <Badge
      badgeContent={unread}
      max={BADGE_MAX}
      color="error"
      overlap="circular"
      invisible={unread === 0}
      // The count is in the button's name.
      slotProps={{ badge: { 'aria-hidden': true } }}
    >
      <NotificationsRoundedIcon sx={ringing ? ringingSx : undefined} />
    </Badge>
  );
  const common = {
    'aria-label': label,
    'aria-haspopup': 'dialog' as const,
    'aria-expanded': open,
    'data-ringing': ringing ? 'true' : 'false',
    onClick: () => setOpen(true),
    onPointerEnter: preloadDialog,
    onFocus: preloadDialog,
  };
  return (
    <>
      {variant === 'bottom' ? (
        <BottomNavigationAction
          {...common}
          label={t('notifications.title')}
          icon={icon}
          showLabel={showLabel}
          selected={selected}
          value={value}
        />
      ) : (
        <IconButton {...common}>{icon}</IconButton>
      )}
      {used ? (
        <NotificationsDialog
          open={open}
          onClose={() => setOpen(false)}
          userId={userId}
          unread={unread}
          onNavigate={onNavigate}
        />
      ) : null}
    </>
  );
}
