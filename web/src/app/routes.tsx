import { Navigate, type RouteObject } from 'react-router';
import { RequireGuest, RequireUser } from '../features/accounts/components/Guards';
import { LoginPage } from '../features/accounts/components/LoginPage';
import { ForgotPasswordPage } from '../features/accounts/components/ForgotPasswordPage';
import { ResetPasswordPage } from '../features/accounts/components/ResetPasswordPage';
import { SignupPage } from '../features/accounts/components/SignupPage';
import { ErrorRoute, NotFoundPage } from '../components/ErrorPage';
import { TermsPage } from '../features/legal/components/TermsPage';
import { SellersPage } from '../features/sellers/components/SellersPage';
import { CollectionPage } from '../features/items/components/CollectionPage';
import { ItemPage } from '../features/items/components/ItemPage';
import { MintFormRoute } from '../features/items/components/MintFormPage';
import { MyMintsRoute, MyTokensRoute } from '../features/items/components/WalletPage';
import {
  AccountProfileRoute,
  GeneralSettingsRoute,
  PaymentMethodRoute,
  ProfileRoute,
} from './accountRoutes';
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
              // The mint form guards itself (spec 000 §6: guests, unverified users → /).
              { path: 'my-tokens/mint-form', Component: MintFormRoute },
              { path: 'market/product/:id', Component: ItemPage },
              { path: 'market/collection/:id', Component: CollectionPage },
              {
                // Visitors are sent home; /account pages still to come show the 404.
                Component: RequireUser,
                children: [
                  { path: 'account/settings/general', Component: GeneralSettingsRoute },
                  { path: 'account/settings/paymentmethod', Component: PaymentMethodRoute },
                  { path: 'account/profile', Component: AccountProfileRoute },
                  // The wallet opens on its first tab.
                  { path: 'account/wallet', element: <Navigate to="mytokens" replace /> },
                  { path: 'account/wallet/mytokens', Component: MyTokensRoute },
                  { path: 'account/wallet/mymints', Component: MyMintsRoute },
                  { path: 'account/*', Component: NotFoundPage },
                  { path: 'checkout', Component: NotFoundPage },
                  { path: 'market/product/:id/checkout', Component: NotFoundPage },
                ],
              },
              // Public profiles; reserved or malformed first segments still show the 404.
              { path: ':usernick', Component: ProfileRoute },
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
