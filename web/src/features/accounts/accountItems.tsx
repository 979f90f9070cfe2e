import HistoryRoundedIcon from '@mui/icons-material/HistoryRounded';
import PersonOutlineRoundedIcon from '@mui/icons-material/PersonOutlineRounded';
import SettingsRoundedIcon from '@mui/icons-material/SettingsRounded';
import type { ReactNode } from 'react';
import { PATHS } from '../../lib/paths';

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
    ready: true,
  },
  {
    key: 'settings',
    to: PATHS.settings,
    icon: <SettingsRoundedIcon fontSize="small" />,
    ready: true,
  },
];
