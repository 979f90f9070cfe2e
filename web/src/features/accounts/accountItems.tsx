import AccountBalanceWalletRoundedIcon from '@mui/icons-material/AccountBalanceWalletRounded';
import HistoryRoundedIcon from '@mui/icons-material/HistoryRounded';
import NotificationsRoundedIcon from '@mui/icons-material/NotificationsRounded';
import PersonOutlineRoundedIcon from '@mui/icons-material/PersonOutlineRounded';
import SettingsRoundedIcon from '@mui/icons-material/SettingsRounded';
import type { ReactNode } from 'react';

export interface AccountItem<K extends string> {
  key: K;
  to: string;
  icon: ReactNode;
  /**
   * Whether the target page exists in this build. Items of pages that later features add stay
   * hidden until then rather than leading to the 404 page.
   */
  ready: boolean;
}

/** The account menu of spec 001 §2, in the spec's order (logout is always there). */
export const ACCOUNT_MENU_ITEMS: readonly AccountItem<'profile' | 'activity' | 'settings'>[] = [
  {
    // The public profile `/:nick`; AccountMenu puts the user's nick in.
    key: 'profile',
    to: '/:nick',
    icon: <PersonOutlineRoundedIcon fontSize="small" />,
    ready: true,
  },
  {
    key: 'activity',
    to: '/account/activity',
    icon: <HistoryRoundedIcon fontSize="small" />,
    ready: false,
  },
  {
    key: 'settings',
    to: '/account/settings/general',
    icon: <SettingsRoundedIcon fontSize="small" />,
    ready: true,
  },
];

/** The logged-in actions of the top bar besides the account button (spec 001 §2). */
export const USER_ACTIONS = {
  /** Verified users mint; the others verify. */
  mint: { to: '/my-tokens/mint-form', ready: true },
  verify: { to: '/account/settings/general', ready: false },
  wallet: {
    to: '/account/wallet',
    ready: false,
    icon: <AccountBalanceWalletRoundedIcon />,
  },
  notifications: { to: '/account/activity', ready: false, icon: <NotificationsRoundedIcon /> },
} as const;
