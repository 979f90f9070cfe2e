import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import HomeRoundedIcon from '@mui/icons-material/HomeRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../lib/i18n';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { usePageMeta } from '../lib/head';

/** 'page not found' for 404, otherwise a generic error; always with a way back home. */
export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation();
  const notFound = status === 404;
  const texts = notFound ? 'notFound' : 'generic';
  usePageMeta({
    title: t('meta.titleTemplate', {
      page: t(notFound ? 'meta.notFound.title' : 'meta.error.title'),
      app: t('app.name'),
    }),
    noIndex: true,
  });
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 8, md: 14 }, textAlign: 'center' }}>
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: 2,
        }}
      >
        {notFound ? (
          <Typography
            aria-hidden
            sx={{
              fontSize: { xs: '5.5rem', sm: '7rem' },
              fontWeight: 800,
              lineHeight: 1,
              letterSpacing: '-0.04em',
              background: 'linear-gradient(135deg, #4F46E5 0%, #7C3AED 100%)',
              backgroundClip: 'text',
              WebkitBackgroundClip: 'text',
              color: 'transparent',
            }}
          >
            {t('errorPage.notFound.code')}
          </Typography>
        ) : (
          <Box
            aria-hidden
            sx={{
              width: 88,
              height: 88,
              borderRadius: '50%',
              display: 'grid',
              placeItems: 'center',
              bgcolor: 'rgba(211, 47, 47, 0.08)',
              color: 'error.main',
            }}
          >
            <ErrorOutlineRoundedIcon sx={{ fontSize: 48 }} />
          </Box>
        )}
        <Typography variant="h4" component="h1">
          {t(`errorPage.${texts}.title`)}
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: '1.05rem', maxWidth: 440 }}>
          {t(`errorPage.${texts}.body`)}
        </Typography>
        <Button
          component={RouterLink}
          to="/"
          variant="contained"
          size="large"
          startIcon={<HomeRoundedIcon />}
          sx={{ mt: 2 }}
        >
          {t('errorPage.home')}
        </Button>
      </Box>
    </Container>
  );
}

/** The status carried by /error?status=…; the spec's default is 500. */
export function statusFromSearch(value: string | null): number {
  const status = Number(value);
  return Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500;
}

/** `/error`: shows the error page for `?status=` (404 → page not found). */
export function ErrorRoute() {
  const [params] = useSearchParams();
  return <ErrorPage status={statusFromSearch(params.get('status'))} />;
}

/** The catch-all route. */
export function NotFoundPage() {
  return <ErrorPage status={404} />;
}
