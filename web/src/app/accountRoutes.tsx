import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect } from 'react';
import { useTranslation } from '../lib/i18n';
import { useNavigate } from 'react-router';
import { AddressesSection } from '../features/addresses/components/AddressesSection';
import { NotifyPreferencesSection } from '../features/notifyPreferences/components/NotifyPreferencesSection';
import { SellerAccountSection } from '../features/payments/components/SellerAccountSection';
import { GeneralSettingsPage } from '../features/settings/components/GeneralSettingsPage';
import { useAuth } from '../lib/auth';
import { useSwitches } from '../lib/config';
import { editProfileModal } from '../lib/editProfileStore';
import { useOwnProfile } from '../lib/ownProfile';

export const GENERAL_SETTINGS_PATH = '/account/settings/general';

/**
 * The /account pages (spec 001 §2), all behind RequireUser. Features do not import each other, so
 * the settings page's sections from other features are composed here.
 */
export function GeneralSettingsRoute() {
  const { user } = useAuth();
  const { fiat } = useSwitches();
  if (!user) return null;
  return (
    <GeneralSettingsPage>
      <AddressesSection userId={user.id} />
      {/* Seller onboarding is with the card payment provider (Stripe): only with fiat on. */}
      {fiat ? <SellerAccountSection userId={user.id} /> : null}
      <NotifyPreferencesSection userId={user.id} />
    </GeneralSettingsPage>
  );
}

/**
 * /account/profile (own profile edit): goes to the user's public profile `/:nick` with the
 * edit-profile modal open over it.
 */
export function AccountProfileRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  // The session names the nick once known; otherwise the own profile does.
  const needsProfile = user !== null && user.nick === '';
  const profile = useOwnProfile(needsProfile ? user.id : null);
  const nick = user?.nick || profile.data?.nick || '';
  const failed = needsProfile && profile.isError;
  useEffect(() => {
    if (nick !== '') {
      editProfileModal.open();
      void navigate(`/${nick}`, { replace: true });
    } else if (failed) {
      editProfileModal.open();
      void navigate(GENERAL_SETTINGS_PATH, { replace: true });
    }
  }, [nick, failed, navigate]);
  return (
    <Box role="status" sx={{ flex: 1, display: 'grid', placeItems: 'center', py: 10 }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}
