import type { ComponentType } from 'react';
import { useLocation } from 'react-router';
import { NotFoundPage } from '../../components/ErrorPage';
import { CardSetupCancelPage, CardSetupSuccessPage } from './components/CardSetupResultPages';
import { MinterReturnPage } from './components/MinterReturnPage';
import { OnboardingRefreshPage } from './components/OnboardingRefreshPage';

/**
 * The payments feature's pages, behind one lazy import in the route table (each is small; the
 * become-minter modal stays a chunk of its own): the saved-cards page, the onboarding window's
 * /redirecting, and the card provider's return pages (spec 001 §2), which `StripeReturnRoute`
 * picks by path under the one `stripe/*` route, so the shell carries one entry for them.
 */
export { PaymentMethodsRoute } from './components/PaymentMethodsPage';
export { RedirectingPage } from './components/RedirectingPage';

const RETURN_PAGES: Record<string, ComponentType> = {
  // Connect onboarding: return_url, refresh_url.
  '/stripe/onboarding/minter': MinterReturnPage,
  '/stripe/payment/refresh': OnboardingRefreshPage,
  // Checkout in setup mode: success_url, cancel_url.
  '/stripe/payment/success': CardSetupSuccessPage,
  '/stripe/payment/cancel': CardSetupCancelPage,
};

export function StripeReturnRoute() {
  const { pathname } = useLocation();
  const Page = RETURN_PAGES[pathname.replace(/\/+$/, '')] ?? NotFoundPage;
  return <Page />;
}
