import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import DoneAllRoundedIcon from '@mui/icons-material/DoneAllRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { UI } from '@shared/constants/limits';
import type { Notification } from '@shared/schemas/notifications';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { RetryButton } from '../../../components/StatusMessage';
import { becomeMinterModal } from '../../../lib/becomeMinterStore';
import { configQueryKey } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import notificationsTexts from '../../../locales/en.notifications.json';
import { fetchNotifications, notificationKeys } from '../api/notifications';
import { useNotificationActions } from '../hooks/useNotificationActions';
import { isCurrentPage, notificationTarget } from '../notificationContent';
import { EmptyNotifications } from './EmptyNotifications';
import { NotificationRow, NotificationRowSkeleton } from './NotificationRow';

addTranslations({ notifications: notificationsTexts });

/** The dialog's scroll area (spec 001 §2). */
export const NOTIFICATIONS_SCROLL_MAX_HEIGHT = 541;

export interface NotificationsDialogProps {
  open: boolean;
  onClose: () => void;
  userId: string;
  /** The unread count (the bell's), for the mark-all action. */
  unread: number;
  /** A notification's target was opened (the layout closes its phone drawer). */
  onNavigate?: () => void;
}

/**
 * The notifications dialog (spec 001 §2): 426 px wide (95% on small screens), its list scrolling
 * within 541 px and loading 10 more as its end comes into view.
 */
export function NotificationsDialog({
  open,
  onClose,
  userId,
  unread,
  onNavigate,
}: NotificationsDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      scroll="paper"
      sx={{
        '& .MuiDialog-container': {
          alignItems: { xs: 'center', sm: 'flex-start' },
          justifyContent: { xs: 'center', sm: 'flex-end' },
        },
      }}
      slotProps={{
        paper: {
          sx: {
            width: { xs: '95%', sm: UI.notificationDialogWidth },
            maxWidth: '95%',
            m: 0,
            mt: { sm: `${UI.topBarHeightFromSm + 8}px` },
            mr: { sm: 2 },
            borderRadius: 3,
          },
        },
      }}
    >
      <NotificationsPanel
        userId={userId}
        unread={unread}
        titleId={titleId}
        onClose={onClose}
        onNavigate={onNavigate}
      />
    </Dialog>
  );
}

const [configKey] = configQueryKey;

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

interface PanelProps {
  userId: string;
  unread: number;
  titleId: string;
  onClose: () => void;
  onNavigate?: () => void;
}

/** The dialog's content, mounted while it is open (so "Today" is counted from each opening). */
function NotificationsPanel({ userId, unread, titleId, onClose, onNavigate }: PanelProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [now] = useState(() => Date.now());
  const [timeZone] = useState(viewerZone);
  const actions = useNotificationActions(userId);
  const list = useInfiniteQuery({
    queryKey: notificationKeys.list(userId),
    queryFn: ({ pageParam, signal }) => fetchNotifications(userId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // Read marks change in other tabs: fetched again at each opening.
    staleTime: 0,
  });
  const items = useMemo(() => {
    const seen = new Set<string>();
    const all: Notification[] = [];
    for (const page of list.data?.pages ?? []) {
      for (const item of page.notifications) {
        if (seen.has(item.id)) continue;
        seen.add(item.id);
        all.push(item);
      }
    }
    return all;
  }, [list.data]);
  const hasUnread = unread > 0 || items.some((item) => !item.read);

  const openNotification = (notification: Notification) => {
    actions.markRead(notification);
    onClose();
    onNavigate?.();
    const target = notificationTarget(notification);
    if (target.kind === 'becomeMinter') {
      becomeMinterModal.open();
      return;
    }
    if (!isCurrentPage(target.to, location.pathname)) {
      void navigate(target.to);
      return;
    }
    // Already there: its data is fetched again instead of a navigation that would change nothing
    // (the deployment's settings excepted).
    void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== configKey });
    const [path, query] = target.to.split('?');
    const search = query ? `?${query}` : '';
    if (path === location.pathname && search !== location.search) {
      void navigate(target.to, { replace: true });
    }
  };

  const loadMore = () => {
    if (list.hasNextPage && !list.isFetchingNextPage && !list.isFetchNextPageError) {
      void list.fetchNextPage();
    }
  };

  return (
    <>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          pl: 2.5,
          pr: 1,
          py: 1,
          minHeight: 56,
        }}
      >
        <Typography id={titleId} variant="h6" component="h2" sx={{ flex: 1, fontWeight: 700 }}>
          {t('notifications.title')}
        </Typography>
        {items.length > 0 ? (
          <Button
            size="small"
            startIcon={<DoneAllRoundedIcon />}
            onClick={actions.markAllRead}
            disabled={!hasUnread || actions.markingAll}
          >
            {t('notifications.markAllRead')}
          </Button>
        ) : null}
        <IconButton aria-label={t('notifications.close')} onClick={onClose}>
          <CloseRoundedIcon />
        </IconButton>
      </Box>
      <DialogContent
        dividers
        data-notifications-scroll
        sx={{ p: 0, maxHeight: NOTIFICATIONS_SCROLL_MAX_HEIGHT, overscrollBehavior: 'contain' }}
      >
        {list.isPending ? (
          <Box role="status" aria-label={t('notifications.loading')}>
            {Array.from({ length: UI.notificationSkeletonRows }, (_, index) => (
              <NotificationRowSkeleton key={index} />
            ))}
          </Box>
        ) : list.isError ? (
          <Box
            role="alert"
            sx={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              textAlign: 'center',
              gap: 1,
              px: 3,
              py: 5,
            }}
          >
            <CloudOffRoundedIcon color="error" sx={{ fontSize: 40 }} />
            <Typography sx={{ fontWeight: 700 }}>{t('notifications.failed')}</Typography>
            <Typography variant="body2" color="text.secondary">
              {errorText(list.error)}
            </Typography>
            <Box sx={{ mt: 1 }}>
              <RetryButton onClick={() => void list.refetch()} busy={list.isFetching} />
            </Box>
          </Box>
        ) : items.length === 0 ? (
          <EmptyNotifications />
        ) : (
          <>
            <List disablePadding aria-labelledby={titleId}>
              {items.map((notification) => (
                <NotificationRow
                  key={notification.id}
                  notification={notification}
                  now={now}
                  timeZone={timeZone}
                  onOpen={openNotification}
                  onMarkRead={actions.markRead}
                  onMarkUnread={actions.markUnread}
                />
              ))}
            </List>
            <ListEnd
              pageCount={list.data.pages.length}
              hasNextPage={list.hasNextPage}
              loading={list.isFetchingNextPage}
              failed={list.isFetchNextPageError}
              onVisible={loadMore}
              onRetry={() => void list.fetchNextPage()}
            />
          </>
        )}
      </DialogContent>
    </>
  );
}

interface ListEndProps {
  pageCount: number;
  hasNextPage: boolean;
  loading: boolean;
  failed: boolean;
  onVisible: () => void;
  onRetry: () => void;
}

/**
 * The list's end: a sentinel that loads the next page as it scrolls into view (within 120 px),
 * a spinner while it loads, a retry if it failed. Without IntersectionObserver, a button.
 */
function ListEnd({ pageCount, hasNextPage, loading, failed, onVisible, onRetry }: ListEndProps) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const visible = useRef(onVisible);
  useEffect(() => {
    visible.current = onVisible;
  }, [onVisible]);
  const observing = hasNextPage && !failed;
  const observable = typeof IntersectionObserver !== 'undefined';
  useEffect(() => {
    const node = sentinel.current;
    if (!observing || !node || !observable) return undefined;
    // A new observer for each page: it reports at once whether the end is still in view.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) visible.current();
      },
      { root: node.closest('[data-notifications-scroll]'), rootMargin: '0px 0px 120px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [observing, observable, pageCount]);

  if (!hasNextPage) return null;
  return (
    <Box
      ref={sentinel}
      data-list-end
      sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', gap: 1, p: 2 }}
    >
      {failed ? (
        <>
          <Typography variant="body2" color="text.secondary">
            {t('notifications.moreFailed')}
          </Typography>
          <Button size="small" onClick={onRetry}>
            {t('notifications.retry')}
          </Button>
        </>
      ) : loading ? (
        <CircularProgress size={24} aria-label={t('notifications.loadingMore')} />
      ) : observable ? null : (
        <Button size="small" onClick={onVisible}>
          {t('notifications.loadMore')}
        </Button>
      )}
    </Box>
  );
}
