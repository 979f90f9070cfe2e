import Link from '@mui/material/Link';
import Box from '@mui/material/Box';
import { Link as RouterLink } from 'react-router';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import adminTexts from '../../../locales/en.admin.json';

addTranslations({ admin: adminTexts });

/** Support's pages, as the links between them. */
export const ADMIN_PATHS = {
  offerings: '/admin/offerings',
  money: '/admin/money',
} as const;

/** The links between support's pages; the one shown is marked as the current page. */
export function AdminNav({ current }: { current: keyof typeof ADMIN_PATHS }) {
  const { t } = useTranslation();
  const pages = [
    { key: 'offerings', label: t('admin.nav.offerings') },
    { key: 'money', label: t('admin.nav.money') },
  ] as const;
  return (
    <Box component="nav" aria-label={t('admin.nav.label')} sx={{ mb: 1 }}>
      <Box
        component="ul"
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', gap: 2, flexWrap: 'wrap' }}
      >
        {pages.map((page) => (
          <li key={page.key}>
            <Link
              component={RouterLink}
              to={ADMIN_PATHS[page.key]}
              aria-current={page.key === current ? 'page' : undefined}
              underline={page.key === current ? 'none' : 'hover'}
              color={page.key === current ? 'text.primary' : 'primary'}
              sx={{ fontWeight: page.key === current ? 700 : 500, fontSize: '0.875rem' }}
            >
              {page.label}
            </Link>
          </li>
        ))}
      </Box>
    </Box>
  );
}
