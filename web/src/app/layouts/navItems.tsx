import AccountBalanceWalletRoundedIcon from '@mui/icons-material/AccountBalanceWalletRounded';
import ChatBubbleOutlineRoundedIcon from '@mui/icons-material/ChatBubbleOutlineRounded';
import GavelRoundedIcon from '@mui/icons-material/GavelRounded';
import HelpOutlineRoundedIcon from '@mui/icons-material/HelpOutlineRounded';
import PeopleAltRoundedIcon from '@mui/icons-material/PeopleAltRounded';
import QrCodeScannerRoundedIcon from '@mui/icons-material/QrCodeScannerRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import SupportAgentRoundedIcon from '@mui/icons-material/SupportAgentRounded';
import type { ReactNode } from 'react';
import type { SessionUser } from '../../lib/auth';
import type { PublicSwitches } from '../../lib/config';
import { PATHS } from '../../lib/paths';

export type NavKey = 'market' | 'sellers' | 'redeem' | 'messages' | 'faq' | 'support' | 'terms';

export interface NavContext {
  switches: Pick<PublicSwitches, 'faq' | 'messages'>;
  user: Pick<SessionUser, 'redeemer'> | null;
}

export interface NavItem {
  key: NavKey;
  to: string;
  icon: ReactNode;
  /**
   * Whether the target page exists in this build. Items of pages that later features add stay
   * hidden until then rather than leading to the 404 page.
   */
  ready: boolean;
  /** Extra condition from the spec (switches, the user's flags). */
  visible?: (context: NavContext) => boolean;
}

/** The side bar of spec 001 §2, in the spec's order. */
export const NAV_ITEMS: readonly NavItem[] = [
  {
    key: 'market',
    to: '/market/preview/marketplace',
    icon: <StorefrontRoundedIcon />,
    ready: true,
  },
  { key: 'sellers', to: PATHS.sellers, icon: <PeopleAltRoundedIcon />, ready: true },
  {
    key: 'redeem',
    to: '/redeem',
    icon: <QrCodeScannerRoundedIcon />,
    ready: false,
    visible: ({ user }) => typeof user?.redeemer === 'number',
  },
  {
    key: 'messages',
    to: '/messages',
    icon: <ChatBubbleOutlineRoundedIcon />,
    ready: false,
    visible: ({ user, switches }) => user !== null && switches.messages,
  },
  {
    key: 'faq',
    to: '/faq',
    icon: <HelpOutlineRoundedIcon />,
    ready: false,
    visible: ({ switches }) => switches.faq,
  },
  { key: 'support', to: '/support', icon: <SupportAgentRoundedIcon />, ready: false },
  { key: 'terms', to: PATHS.terms, icon: <GavelRoundedIcon />, ready: true },
];

/**
 * The logged-in actions of the top and bottom bars besides the account button (spec 001 §2).
 * `ready` says whether the target exists in this build; the others stay hidden until it does.
 */
export const USER_ACTIONS = {
  /** Verified users create items; the others verify (the verify modal comes later). */
  mint: { to: PATHS.mintForm, ready: true },
  verify: { to: PATHS.settings, ready: false },
  /** The wallet, whose tabs are My items and My creations. */
  wallet: { to: PATHS.wallet, ready: true, icon: <AccountBalanceWalletRoundedIcon /> },
  /**
   * The bell opens the notifications dialog (features/notifications) rather than a page; not for
   * guest-flagged users.
   */
  notifications: { ready: true },
} as const;

export function visibleNavItems(items: readonly NavItem[], context: NavContext): NavItem[] {
  return items.filter((item) => item.ready && (item.visible?.(context) ?? true));
}

/** '/legal/terms?x' → 'legal'; '/' → ''. */
export function firstSegment(path: string): string {
  return path.replace(/^\/+/, '').split(/[/?#]/)[0] ?? '';
}

/** Side bar items are active when the first path segment matches (spec 001 §2). */
export function isNavItemActive(item: Pick<NavItem, 'to'>, pathname: string): boolean {
  const segment = firstSegment(pathname);
  return segment !== '' && segment === firstSegment(item.to);
}

/** The id of the phone's navigation drawer (the top bar's menu button controls it). */
export const DRAWER_ID = 'app-navigation-drawer';
