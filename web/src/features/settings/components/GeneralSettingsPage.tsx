import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
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
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box component="header" sx={{ mb: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.75rem', sm: '2.2rem' } }}>
          {t('settings.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t('settings.subtitle')}
        </Typography>
      </Box>
      <Box sx={{ display: 'grid', gap: { xs: 2, sm: 3 } }}>
        <AccountSection userId={user.id} />
        {children}
      </Box>
    </Container>
  );
}
