import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../../lib/auth';
import { becomeMinterModal, useBecomeMinterRequest } from '../../../lib/becomeMinterStore';
import { useSwitches } from '../../../lib/config';
import { lazyOverlay } from '../../../lib/lazyOverlay';
import { ownProfileQueryKey } from '../../../lib/ownProfile';
import { onboardingRegistry } from '../../../lib/permission';
import type { BecomeMinterModalProps } from './BecomeMinterModal';

/* The modal (its steps, the country list, the calls) loads on demand, preloaded once idle. */
const BecomeMinterModal = lazyOverlay<BecomeMinterModalProps>(
  async () => (await import('./BecomeMinterModal')).BecomeMinterModal,
);

/**
 * Mounted once at the root. While a user is signed in and the deployment takes card payments
 * (fiat: Stripe is the payment provider), it takes the permission guard's 'onboard' decisions
 * (`onboardingRegistry`) and shows the become-minter modal whenever `becomeMinterModal.open()` is
 * asked for (account menu, settings, return pages). Closing refreshes the own profile (its kept
 * onboarding status) and unmounts the modal, which resets it.
 */
export function BecomeMinterHost() {
  const { user } = useAuth();
  const { fiat } = useSwitches();
  const request = useBecomeMinterRequest();
  const queryClient = useQueryClient();
  const userId = user?.id ?? null;
  const enabled = userId !== null && fiat;

  useEffect(() => {
    if (!enabled) return undefined;
    const unregister = onboardingRegistry.register((action) => becomeMinterModal.open(action));
    return () => {
      unregister();
    };
  }, [enabled]);

  // A modal asked for before logging out must not pop up after the next login.
  useEffect(() => {
    if (!enabled) becomeMinterModal.close();
  }, [enabled]);

  if (!enabled || request === null) return null;
  const close = () => {
    becomeMinterModal.close();
    void queryClient.invalidateQueries({ queryKey: ownProfileQueryKey(userId) });
  };
  return <BecomeMinterModal userId={userId} action={request.action} onClose={close} />;
}
