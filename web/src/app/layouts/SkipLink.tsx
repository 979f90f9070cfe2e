import Link from '@mui/material/Link';
import { useTranslation } from '../../lib/i18n';

export const MAIN_ID = 'main-content';

/** The first focusable element: jumps over the bars to the page content. */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${MAIN_ID}`}
      sx={{
        position: 'fixed',
        left: 16,
        top: -64,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        fontWeight: 600,
        '&:focus': { top: 12 },
      }}
    >
      {t('common.skipToContent')}
    </Link>
  );
}
