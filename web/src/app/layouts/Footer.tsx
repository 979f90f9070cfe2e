import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export function Footer() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
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
