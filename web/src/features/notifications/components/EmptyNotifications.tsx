import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import notificationsTexts from '../../../locales/en.notifications.json';

addTranslations({ notifications: notificationsTexts });

/** A quiet bell over an empty tray: the empty state's picture (inline, no image to fetch). */
function QuietBell() {
  return (
    <Box
      component="svg"
      viewBox="0 0 160 120"
      aria-hidden
      sx={{ width: 160, height: 120, color: 'primary.main' }}
    >
      <ellipse cx="80" cy="104" rx="52" ry="8" fill="currentColor" opacity="0.08" />
      <circle cx="80" cy="56" r="44" fill="currentColor" opacity="0.07" />
      <path
        d="M80 22c-13.8 0-25 11.2-25 25v17.5L47 74v4h66v-4l-8-9.5V47c0-13.8-11.2-25-25-25Z"
        fill="#fff"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <path
        d="M71 82a9 9 0 0 0 18 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <circle cx="80" cy="19" r="4" fill="currentColor" />
      <path
        d="M118 26h10l-10 12h10M130 12h7l-7 8h7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
        opacity="0.55"
      />
      <path
        d="M30 40l6 2M27 54h7M32 67l5-3"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        opacity="0.3"
      />
    </Box>
  );
}

/** No notifications yet: the picture and a line on what will show here. */
export function EmptyNotifications() {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1,
        px: 4,
        py: 5,
      }}
    >
      <QuietBell />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }}>
        {t('notifications.empty.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 300 }}>
        {t('notifications.empty.body')}
      </Typography>
    </Box>
  );
}
