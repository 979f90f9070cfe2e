import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import { RequireGuest, RequireUser } from '../features/accounts/components/Guards';
import { NotFoundPage } from '../components/ErrorPage';
import { lazyPage, type LazyPage } from './lazyPage';
import { DefaultLayout } from './layouts/DefaultLayout';
import { SessionLayout } from './layouts/SessionLayout';
import { Root, RouteBoundary } from './Root';

/*
 * Pages load on demand, each in its own chunk (lazyPage); the shell (root, layouts, guards, the
 * 404 and error pages) is in the entry. Forms, Amplify and the login steps are reached only from
 * these chunks and the modals' own lazy chunks.
 */
/** The payments pages share one chunk (features/payments/pages.ts). */
const paymentsPages = () => import('../features/payments/pages');
/** The orders pages share one chunk (features/orders/pages.ts). */
const ordersPages = () => import('../features/orders/pages');

const page = {
  home: lazyPage(
    () => import('./HomeRoute'),
    (m) => m.HomeRoute,
  ),
  sellers: lazyPage(
    () => import('../features/sellers/components/SellersPage'),
    (m) => m.SellersPage,
  ),
  terms: lazyPage(
    () => import('../features/legal/components/TermsPage'),
    (m) => m.TermsPage,
  ),
  error: lazyPage(
    () => import('../components/ErrorPage'),
    (m) => m.ErrorRoute,
  ),
  mintForm: lazyPage(
    () => import('../features/items/components/MintFormPage'),
    (m) => m.MintFormRoute,
  ),
  item: lazyPage(
    () => import('./ItemRoute'),
    (m) => m.ItemRoute,
  ),
  collection: lazyPage(
    () => import('./CollectionRoute'),
    (m) => m.CollectionRoute,
  ),
  market: lazyPage(
    () => import('../features/market/components/MarketPage'),
    (m) => m.MarketPage,
  ),
  listForm: lazyPage(
    () => import('../features/listing/components/ListFormPage'),
    (m) => m.ListFormRoute,
  ),
  adminOfferings: lazyPage(
    () => import('../features/admin/components/AdminOfferingsPage'),
    (m) => m.AdminOfferingsRoute,
  ),
  adminMoney: lazyPage(
    () => import('../features/admin/components/AdminMoneyPage'),
    (m) => m.AdminMoneyRoute,
  ),
  generalSettings: lazyPage(
    () => import('./accountRoutes'),
    (m) => m.GeneralSettingsRoute,
  ),
  paymentMethod: lazyPage(paymentsPages, (m) => m.PaymentMethodsRoute),
  redirecting: lazyPage(paymentsPages, (m) => m.RedirectingPage),
  stripeReturn: lazyPage(paymentsPages, (m) => m.StripeReturnRoute),
  accountProfile: lazyPage(
    () => import('./accountRoutes'),
    (m) => m.AccountProfileRoute,
  ),
  myTokens: lazyPage(
    () => import('../features/items/components/WalletPage'),
    (m) => m.MyTokensRoute,
  ),
  myMints: lazyPage(
    () => import('../features/items/components/WalletPage'),
    (m) => m.MyMintsRoute,
  ),
  myTokensHistory: lazyPage(ordersPages, (m) => m.TokensHistoryRoute),
  order: lazyPage(ordersPages, (m) => m.OrderRoute),
  activity: lazyPage(ordersPages, (m) => m.ActivityRoute),
  checkout: lazyPage(
    () => import('../features/checkout/components/CheckoutPage'),
    (m) => m.CheckoutRoute,
  ),
  profile: lazyPage(
    () => import('./ProfileRoute'),
    (m) => m.ProfileRoute,
  ),
  login: lazyPage(
    () => import('../features/accounts/components/LoginPage'),
    (m) => m.LoginPage,
  ),
  signup: lazyPage(
    () => import('../features/accounts/components/SignupPage'),
    (m) => m.SignupPage,
  ),
  forgotPassword: lazyPage(
    () => import('../features/accounts/components/ForgotPasswordPage'),
    (m) => m.ForgotPasswordPage,
  ),
  resetPassword: lazyPage(
    () => import('../features/accounts/components/ResetPasswordPage'),
    (m) => m.ResetPasswordPage,
  ),
  unsubscribe: lazyPage(
    () => import('../features/notifyPreferences/components/UnsubscribePage'),
    (m) => m.UnsubscribePage,
  ),
};

/**
 * The route table (spec 000 §2). Only pages that exist are routed; everything else, including the
 * routes of features still to come, falls to the catch-all 404.
 */
export const routes: RouteObject[] = [
  {
    Component: RouteBoundary,
    children: [
      {
        Component: Root,
        children: [
          {
            Component: DefaultLayout,
            children: [
              {
                Component: RouteBoundary,
                children: [
                  { index: true, Component: page.home },
                  { path: 'sellers', Component: page.sellers },
                  { path: 'legal/terms', Component: page.terms },
                  { path: 'error', Component: page.error },
                  // The mint form guards itself (spec 000 §6: guests, unverified users → /).
                  { path: 'my-tokens/mint-form', Component: page.mintForm },
                  { path: 'market/product/:id', Component: page.item },
                  // The market tabs (spec 000 §2): guests see the market preview.
                  { path: 'market', element: <Navigate to="preview/marketplace" replace /> },
                  { path: 'market/preview', element: <Navigate to="marketplace" replace /> },
                  { path: 'market/preview/*', Component: page.market },
                  // The list form guards itself (000 §6: onboarding complete, else mytokens).
                  { path: 'my-tokens/list-form/:id', Component: page.listForm },
                  // Support's queue and money page; the 404 page for anyone but an admin.
                  { path: 'admin/offerings', Component: page.adminOfferings },
                  { path: 'admin/money', Component: page.adminMoney },
                  { path: 'market/collection/:id', Component: page.collection },
                  {
                    // Visitors are sent home; /account pages still to come show the 404.
                    Component: RequireUser,
                    children: [
                      { path: 'account/settings/general', Component: page.generalSettings },
                      { path: 'account/settings/paymentmethod', Component: page.paymentMethod },
                      { path: 'account/profile', Component: page.accountProfile },
                      // The wallet opens on its first tab.
                      { path: 'account/wallet', element: <Navigate to="mytokens" replace /> },
                      { path: 'account/wallet/mytokens', Component: page.myTokens },
                      { path: 'account/wallet/mymints', Component: page.myMints },
                      {
                        path: 'account/wallet/mytokenshistory',
                        Component: page.myTokensHistory,
                      },
                      // No slug, or an unknown one, goes to the market activity (001 §2).
                      { path: 'account/activity/:slug?', Component: page.activity },
                      { path: 'account/orders/:orderId', Component: page.order },
                      { path: 'account/*', Component: NotFoundPage },
                      // The card provider's return pages (spec 001 §2): Connect onboarding
                      // (return_url, refresh_url) and Checkout in setup mode (success, cancel).
                      // (/stripe/onboarding/minter, /stripe/payment/refresh, /success, /cancel)
                      { path: 'stripe/*', Component: page.stripeReturn },
                      { path: 'checkout', Component: NotFoundPage },
                      // :id is the offering (oF…); the step and the order are in the query.
                      { path: 'market/product/:id/checkout', Component: page.checkout },
                    ],
                  },
                  // Public profiles; reserved or malformed first segments still show the 404.
                  { path: ':usernick', Component: page.profile },
                  { path: '*', Component: NotFoundPage },
                ],
              },
            ],
          },
          {
            // The onboarding window's first page (spec 001 §2), before it is pointed at Stripe: no
            // bars, nothing private (a guest who opens it sees the same blank "Opening Stripe…").
            path: 'redirecting',
            Component: RouteBoundary,
            children: [{ index: true, Component: page.redirecting }],
          },
          {
            path: 'session',
            Component: SessionLayout,
            children: [
              {
                Component: RouteBoundary,
                children: [
                  {
                    Component: RequireGuest,
                    children: [
                      { path: 'login', Component: page.login },
                      { path: 'signup', Component: page.signup },
                      // Password recovery: the 404 page while the passwordLogin switch is off.
                      { path: 'forgot', Component: page.forgotPassword },
                      { path: '*', Component: NotFoundPage },
                    ],
                  },
                ],
              },
            ],
          },
          {
            // Spec route /password/reset/:token? (a logged-in user may follow the link too); the
            // 404 page while the passwordLogin switch is off.
            path: 'password',
            Component: SessionLayout,
            children: [
              {
                Component: RouteBoundary,
                children: [
                  { path: 'reset/:token?', Component: page.resetPassword },
                  { path: '*', Component: NotFoundPage },
                ],
              },
            ],
          },
          {
            // The e-mails' unsubscribe link (/unsubscribe?token=…): no login needed, nothing
            // happens until the visitor confirms (mail scanners open links).
            path: 'unsubscribe',
            Component: SessionLayout,
            children: [
              {
                Component: RouteBoundary,
                children: [{ index: true, Component: page.unsubscribe }],
              },
            ],
          },
        ],
      },
    ],
  },
];

/** The app's pages at the router's location. */
export function AppRoutes() {
  return useRoutes(routes);
}

/** Fetches the chunks of the pages the route table renders at `pathname`. */
export async function preloadPagesAt(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(({ route }) => (route.Component as Partial<LazyPage> | undefined)?.preload?.()),
  );
}
