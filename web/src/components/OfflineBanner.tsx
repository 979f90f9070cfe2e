import WifiOffRoundedIcon from '@mui/icons-material/WifiOffRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from '../lib/i18n';

/** The offline banner (OfflineWarning.tsx shows it while the browser is offline). */
export function OfflineBanner() {
  const { t } = useTranslation();
  return (
    <Alert
      role="status"
      severity="warning"
      icon={<WifiOffRoundedIcon />}
      sx={{ borderRadius: 0, borderBottom: 1, borderColor: 'warning.light', px: { xs: 2, sm: 3 } }}
    >
      <AlertTitle sx={{ mb: 0 }}>{t('offline.title')}</AlertTitle>
      {t('offline.body')}
    </Alert>
  );
}
