import type { RouteObject } from 'react-router';
import { RequireGuest, RequireUser } from '../features/accounts/components/Guards';
import { LoginPage } from '../features/accounts/components/LoginPage';
import { SignupPage } from '../features/accounts/components/SignupPage';
import { ErrorRoute, NotFoundPage } from '../features/errors/components/ErrorPage';
import { TermsPage } from '../features/legal/components/TermsPage';
import { ProfilePage } from '../features/profiles/components/ProfilePage';
import { SellersPage } from '../features/sellers/components/SellersPage';
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
                // Visitors are sent home; the pages themselves come with later features.
                Component: RequireUser,
                children: [
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
              { path: '*', Component: NotFoundPage },
            ],
          },
        ],
      },
    ],
  },
];
