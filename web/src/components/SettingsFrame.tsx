import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useSwitches } from '../lib/config';
import { addTranslations, useTranslation } from '../lib/i18n';
import { PATHS } from '../lib/paths';
import settingsTexts from '../locales/en.settings.json';

addTranslations({ settings: settingsTexts });

/**
 * The settings pages' frame (spec 001 §2 /account/settings/general and /paymentmethod): the
 * "Settings" heading, the tabs between the two pages (the payment methods only while the fiat
 * switch is on; otherwise there is a single page and no tabs), then the page's sections.
 */
export function SettingsFrame({ subtitle, children }: { subtitle: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { fiat } = useSwitches();
  const { pathname } = useLocation();
  const tabs = [
    { to: PATHS.settings, label: t('settings.tabs.general') },
    { to: PATHS.paymentMethods, label: t('settings.tabs.paymentMethods') },
  ];
  const current = tabs.some((tab) => tab.to === pathname) ? pathname : false;
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box component="header" sx={{ mb: fiat ? { xs: 1.5, sm: 2.5 } : { xs: 2.5, sm: 4 } }}>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.75rem', sm: '2.2rem' } }}>
          {t('settings.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {subtitle}
        </Typography>
      </Box>
      {fiat ? (
        <Box
          component="nav"
          aria-label={t('settings.tabs.label')}
          sx={{ mb: { xs: 2, sm: 3 }, borderBottom: 1, borderColor: 'divider' }}
        >
          <Tabs
            value={current}
            aria-label={t('settings.tabs.label')}
            variant="scrollable"
            scrollButtons={false}
          >
            {tabs.map((tab) => (
              <Tab
                key={tab.to}
                value={tab.to}
                label={tab.label}
                component={RouterLink}
                to={tab.to}
                aria-current={tab.to === pathname ? 'page' : undefined}
                sx={{ textTransform: 'none', fontWeight: 600, minHeight: 48 }}
              />
            ))}
          </Tabs>
        </Box>
      ) : null}
      <Box sx={{ display: 'grid', gap: { xs: 2, sm: 3 } }}>{children}</Box>
    </Container>
  );
}
