import LockRoundedIcon from '@mui/icons-material/LockRounded';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';
import { OfferingGridSkeleton } from '../../../components/OfferingCard';
import { StatusMessage } from '../../../components/StatusMessage';
import { useAuth, type SessionUser } from '../../../lib/auth';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { usePermission } from '../../../lib/permission';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

export type PrivateTab = 'myofferings' | 'mybids' | 'favorites' | 'collections';

/**
 * What a guest sees on a tab that needs an account: why, and a Log in button that opens the login
 * modal through the permission guard (as the Follow button does); after logging in the user
 * comes back to this tab.
 */
export function LoginPrompt({ tab }: { tab: PrivateTab }) {
  const { t } = useTranslation();
  const guard = usePermission();
  return (
    <StatusMessage
      icon={<LockRoundedIcon />}
      title={t(`market.login.${tab}`)}
      body={t('market.login.body')}
      action={
        <Button variant="contained" onClick={() => guard('preview', () => undefined)}>
          {t('market.login.action')}
        </Button>
      }
    />
  );
}

/**
 * A tab that needs an account: while the session is being restored its loading state, a guest
 * the login prompt, a user the tab.
 */
export function SignedIn({
  tab,
  children,
}: {
  tab: PrivateTab;
  children: (user: SessionUser) => ReactNode;
}) {
  const { t } = useTranslation();
  const { status, user } = useAuth();
  if (status === 'loading') return <OfferingGridSkeleton label={t('market.grid.loading')} />;
  if (user === null) return <LoginPrompt tab={tab} />;
  return <>{children(user)}</>;
}
