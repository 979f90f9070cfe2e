import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import minterTexts from '../../../locales/en.minter.json';

addTranslations({ minter: minterTexts });

/**
 * /redirecting (spec 001 §2): the blank page the onboarding window opens on, in the click that
 * opened it, until the become-minter modal points it at Stripe. No bars (EmptyLayout), no calls.
 */
export function RedirectingPage() {
  const { t } = useTranslation();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('minter.redirecting.title'), app: t('app.name') }),
    noIndex: true,
  });
  // Its own landmark: the route has no layout (no bars in the onboarding window).
  return (
    <main>
      <Box
        role="status"
        aria-live="polite"
        sx={{
          minHeight: '100vh',
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 2,
          px: 3,
          textAlign: 'center',
        }}
      >
        <CircularProgress aria-hidden />
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {t('minter.redirecting.title')}
        </Typography>
        <Typography color="text.secondary">{t('minter.redirecting.body')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360 }}>
          {t('minter.redirecting.hint')}
        </Typography>
      </Box>
    </main>
  );
}
