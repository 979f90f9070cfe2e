import NotificationsRoundedIcon from '@mui/icons-material/NotificationsRounded';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import IconButton from '@mui/material/IconButton';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { lazyOverlay } from '../../lib/lazyOverlay';

/** Where the bell sits: the top bar's icon button, or an action of the phone's bottom bar. */
export type BellVariant = 'icon' | 'bottom';

export interface NotificationsBellProps {
  variant: BellVariant;
  /** The dialog closed on a notification's target (the layout also closes its phone drawer). */
  onNavigate?: () => void;
  /** Tapped before the bell's module had arrived: it opens the dialog as it mounts. */
  openRequested?: boolean;
  /** What BottomNavigation gives its actions (the bottom bar variant passes them on). */
  showLabel?: boolean;
  selected?: boolean;
  value?: unknown;
}

interface SlotProps extends NotificationsBellProps {
  onRequestOpen?: () => void;
}

/** The bell as the shell draws it until its module is here: same size, same place. */
function BellPlaceholder({ variant, onRequestOpen, showLabel, selected, value }: SlotProps) {
  const { t } = useTranslation();
  const label = t('bottomBar.notifications');
  return variant === 'bottom' ? (
    <BottomNavigationAction
      label={label}
      icon={<NotificationsRoundedIcon />}
      onClick={onRequestOpen}
      showLabel={showLabel}
      selected={selected}
      value={value}
    />
  ) : (
    <IconButton aria-label={label} aria-haspopup="dialog" onClick={onRequestOpen}>
      <NotificationsRoundedIcon />
    </IconButton>
  );
}

/*
 * The bell, its count and its live updates load only for a signed-in user who may see
 * notifications (never at idle time): a guest downloads none of it; the dialog and its list are a
 * further chunk, loaded when first opened (or hovered).
 */
const LazyBell = lazyOverlay<SlotProps>(
  async () => (await import('./components/NotificationsBell')).NotificationsBell,
  { preloadWhenIdle: false, fallback: (props) => <BellPlaceholder {...props} /> },
);

/**
 * The notifications bell of the top and bottom bars (spec 001 §2): rendered by the layout for a
 * signed-in user who is not guest-flagged.
 */
export function NotificationsBellSlot(props: NotificationsBellProps) {
  const [requested, setRequested] = useState(false);
  return (
    <LazyBell
      {...props}
      openRequested={requested || props.openRequested}
      onRequestOpen={() => setRequested(true)}
    />
  );
}
