import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link as RouterLink } from 'react-router';

const noChanges = () => () => undefined;

/**
 * This year. A page rendered at build time shows the build's year; hydration must see the same
 * (`__BUILD_YEAR__`, defined by vite.config.ts for both builds), and the text moves to this year
 * right after, should the two differ.
 */
function useYear(): number {
  return useSyncExternalStore(
    noChanges,
    () => new Date().getFullYear(),
    () => __BUILD_YEAR__,
  );
}

export function Footer() {
  const { t } = useTranslation();
  const year = useYear();
  return (
    <Box
      component="footer"
      sx={{
        mt: 'auto',
        borderTop: 1,
        borderColor: 'divider',
        px: { xs: 2, sm: 4 },
        py: 3,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 1.5,
        color: 'text.secondary',
      }}
    >
      <Typography variant="body2">
        {t('footer.copyright', { year, app: t('app.name') })}
        <Box component="span" sx={{ display: { xs: 'block', md: 'inline' }, ml: { md: 1 } }}>
          {t('footer.payments')}
        </Box>
      </Typography>
      <Box component="ul" sx={{ display: 'flex', gap: 2.5, listStyle: 'none', m: 0, p: 0 }}>
        <li>
          <Link component={RouterLink} to="/sellers" color="inherit" variant="body2">
            {t('footer.sellers')}
          </Link>
        </li>
        <li>
          <Link component={RouterLink} to="/legal/terms" color="inherit" variant="body2">
            {t('footer.terms')}
          </Link>
        </li>
      </Box>
    </Box>
  );
}
