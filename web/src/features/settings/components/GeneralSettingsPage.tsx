import type { ReactNode } from 'react';
import { SettingsFrame } from '../../../components/SettingsFrame';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useAuth } from '../../../lib/auth';
import { usePageMeta } from '../../../lib/head';
import { AccountSection } from './AccountSection';
import settingsTexts from '../../../locales/en.settings.json';

addTranslations({ settings: settingsTexts });

/**
 * /account/settings/general (spec 001 §2): the account section, then the sections other features
 * contribute (the route composes them, since features do not import each other).
 */
export function GeneralSettingsPage({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('meta.settings.title'), app: t('app.name') }),
    noIndex: true,
  });
  if (!user) return null;
  return (
    <SettingsFrame subtitle={t('settings.subtitle')}>
      <AccountSection userId={user.id} />
      {children}
    </SettingsFrame>
  );
}
