import DraftsRoundedIcon from '@mui/icons-material/DraftsRounded';
import Inventory2RoundedIcon from '@mui/icons-material/Inventory2Rounded';
import LocalShippingRoundedIcon from '@mui/icons-material/LocalShippingRounded';
import MarkunreadRoundedIcon from '@mui/icons-material/MarkunreadRounded';
import SellRoundedIcon from '@mui/icons-material/SellRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { Notification, NotificationSection } from '@shared/schemas/notifications';
import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import notificationsTexts from '../../../locales/en.notifications.json';
import { notificationAmount, notificationDateText, notificationText } from '../notificationContent';

addTranslations({ notifications: notificationsTexts });

/** How far a finger moves sideways before a swipe marks the notification read. */
export const SWIPE_THRESHOLD_PX = 40;
/** How far the row follows the finger. */
const SWIPE_TRAVEL_PX = 72;

const SECTION_ICONS: Record<NotificationSection, ReactNode> = {
  minter: <StorefrontRoundedIcon />,
  update: <LocalShippingRoundedIcon />,
  asset: <Inventory2RoundedIcon />,
  market: <SellRoundedIcon />,
};

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export interface NotificationRowProps {
  notification: Notification;
  /** The moment "Today", "Yesterday"… are counted from. */
  now: number;
  timeZone?: string;
  onOpen: (notification: Notification) => void;
  onMarkRead: (notification: Notification) => void;
  onMarkUnread: (notification: Notification) => void;
}

/**
 * One notification: its image (or its section's icon), text, amount, date and unread dot.
 * Hovering it with a mouse, or swiping it left or right on a touch screen, marks it read; a click
 * opens its target; the envelope button sets it back to unread (or read).
 */
export function NotificationRow({
  notification,
  now,
  timeZone,
  onOpen,
  onMarkRead,
  onMarkUnread,
}: NotificationRowProps) {
  const { t } = useTranslation();
  const text = notificationText(t, notification);
  const amount = notificationAmount(notification);
  const date = notificationDateText(t, notification.createdat, now, timeZone);
  const { read } = notification;

  // A swipe: where the finger went down, and whether it has already marked the row.
  const swipe = useRef<{ id: number; x: number; y: number; done: boolean } | null>(null);
  const swiped = useRef(false);
  const [offset, setOffset] = useState(0);
  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType === 'mouse') return;
    swipe.current = { id: event.pointerId, x: event.clientX, y: event.clientY, done: false };
    swiped.current = false;
  };
  const onPointerMove = (event: PointerEvent) => {
    const start = swipe.current;
    if (!start || start.id !== event.pointerId) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) <= Math.abs(dy)) return;
    setOffset(Math.max(-SWIPE_TRAVEL_PX, Math.min(SWIPE_TRAVEL_PX, dx)));
    if (!start.done && Math.abs(dx) >= SWIPE_THRESHOLD_PX) {
      start.done = true;
      swiped.current = true;
      onMarkRead(notification);
    }
  };
  const endSwipe = () => {
    swipe.current = null;
    setOffset(0);
  };

  return (
    <ListItem
      disablePadding
      secondaryAction={
        <Tooltip title={read ? t('notifications.markUnread') : t('notifications.markRead')}>
          <IconButton
            edge="end"
            size="small"
            aria-label={read ? t('notifications.markUnread') : t('notifications.markRead')}
            onClick={() => (read ? onMarkUnread(notification) : onMarkRead(notification))}
            sx={{ color: 'text.secondary' }}
          >
            {read ? (
              <MarkunreadRoundedIcon fontSize="small" />
            ) : (
              <DraftsRoundedIcon fontSize="small" />
            )}
          </IconButton>
        </Tooltip>
      }
      sx={{ '& .MuiListItemSecondaryAction-root': { right: 12 } }}
    >
      <ListItemButton
        data-notification={notification.id}
        data-read={read ? 'true' : 'false'}
        onClick={() => {
          // The click a finger's swipe ends with is not an opening.
          if (swiped.current) {
            swiped.current = false;
            return;
          }
          onOpen(notification);
        }}
        onPointerEnter={(event) => {
          if (event.pointerType === 'mouse' && !read) onMarkRead(notification);
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endSwipe}
        onPointerCancel={endSwipe}
        sx={{
          alignItems: 'flex-start',
          gap: 0.5,
          py: 1.25,
          pl: 2,
          pr: 7,
          // Vertical scrolling stays the browser's; sideways moves are the row's swipe.
          touchAction: 'pan-y',
          transform: offset ? `translateX(${offset}px)` : undefined,
          transition: offset ? 'none' : 'transform 160ms ease-out',
          bgcolor: read ? 'transparent' : 'rgba(79, 70, 229, 0.05)',
        }}
      >
        <ListItemAvatar sx={{ minWidth: 52, mt: 0.25 }}>
          <Avatar
            variant="rounded"
            src={notification.payload.tokenImage}
            alt=""
            sx={{ width: 40, height: 40, bgcolor: 'rgba(79, 70, 229, 0.1)', color: 'primary.main' }}
          >
            {SECTION_ICONS[notification.type]}
          </Avatar>
        </ListItemAvatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {read ? null : (
            <Box component="span" sx={visuallyHidden}>{`${t('notifications.unread')}: `}</Box>
          )}
          <Typography
            variant="body2"
            sx={{ fontWeight: read ? 400 : 600, color: 'text.primary', overflowWrap: 'anywhere' }}
          >
            {text}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.25 }}>
            {amount ? `${amount} · ` : null}
            <time
              dateTime={new Date(notification.createdat).toISOString()}
              title={formatDateTime(notification.createdat, { timeZone })}
            >
              {date}
            </time>
          </Typography>
        </Box>
        <Box
          aria-hidden
          data-unread-dot={read ? undefined : 'true'}
          sx={{
            width: 10,
            height: 10,
            mt: 0.75,
            flexShrink: 0,
            borderRadius: '50%',
            bgcolor: read ? 'transparent' : 'primary.main',
          }}
        />
      </ListItemButton>
    </ListItem>
  );
}

/** A row's shape while the first page loads. */
export function NotificationRowSkeleton() {
  return (
    <Box data-skeleton-row sx={{ display: 'flex', gap: 1.5, px: 2, py: 1.25 }}>
      <Skeleton variant="rounded" width={40} height={40} />
      <Box sx={{ flex: 1 }}>
        <Skeleton width="90%" />
        <Skeleton width="35%" />
      </Box>
    </Box>
  );
}
