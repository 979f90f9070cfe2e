import type { RouteObject } from 'react-router';
import { RequireGuest, RequireUser } from '../features/accounts/components/Guards';
import { LoginPage } from '../features/accounts/components/LoginPage';
import { ForgotPasswordPage } from '../features/accounts/components/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/accounts/components/ResetPasswordPage';
import { SignupPage } from '../features/accounts/components/SignupPage';
import { ErrorRoute, NotFoundPage } from '../features/errors/components/ErrorPage';
import { TermsPage } from '../features/legal/components/TermsPage';
import { ProfilePage } from '../features/profiles/components/ProfilePage';
import { SellersPage } from '../features/sellers/components/SellersPage';
import { AccountProfileRoute, GeneralSettingsRoute, PaymentMethodRoute } from './accountRoutes';
import { HomeRoute } from './HomeRoute';
import { DefaultLayout } from './layouts/DefaultLayout';
import { SessionLayout } from './layouts/SessionLayout';
import { RouteError, Root } from './Root';

/**
 * The route table (spec 000 §2). Only pages that exist are routed; everything else, including the
 * routes of features still to come, falls to the catch-all 404.
 */
export const routes: RouteObject[] = [
  {
    Component: Root,
    ErrorBoundary: RouteError,
    children: [
      {
        Component: DefaultLayout,
        children: [
          {
            ErrorBoundary: RouteError,
            children: [
              { index: true, Component: HomeRoute },
              { path: 'sellers', Component: SellersPage },
              { path: 'legal/terms', Component: TermsPage },
              { path: 'error', Component: ErrorRoute },
              {
                // Visitors are sent home; /account pages still to come show the 404.
                Component: RequireUser,
                children: [
                  { path: 'account/settings/general', Component: GeneralSettingsRoute },
                  { path: 'account/settings/paymentmethod', Component: PaymentMethodRoute },
                  { path: 'account/profile', Component: AccountProfileRoute },
                  { path: 'account/*', Component: NotFoundPage },
                  { path: 'checkout', Component: NotFoundPage },
                  { path: 'market/product/:id/checkout', Component: NotFoundPage },
                ],
              },
              // Public profiles; reserved or malformed first segments still show the 404.
              { path: ':usernick', Component: ProfilePage },
              { path: '*', Component: NotFoundPage },
            ],
          },
        ],
      },
      {
        path: 'session',
        Component: SessionLayout,
        children: [
          {
            ErrorBoundary: RouteError,
            Component: RequireGuest,
            children: [
              { path: 'login', Component: LoginPage },
              { path: 'signup', Component: SignupPage },
              // Password recovery: the 404 page while the passwordLogin switch is off.
              { path: 'forgot', Component: ForgotPasswordPage },
              { path: '*', Component: NotFoundPage },
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
            ErrorBoundary: RouteError,
            children: [
              { path: 'reset/:token?', Component: ResetPasswordPage },
              { path: '*', Component: NotFoundPage },
            ],
          },
        ],
      },
    ],
  },
];
