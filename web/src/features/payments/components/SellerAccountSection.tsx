import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { isOnboarded, ONBOARDING_STATUSES, type OnboardingStatus } from '@shared/onboarding';
import { useId } from 'react';
import { becomeMinterModal } from '../../../lib/becomeMinterStore';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useOwnProfile } from '../../../lib/ownProfile';
import minterTexts from '../../../locales/en.minter.json';
import { SettingsSection } from '../../../components/SettingsSection';

addTranslations({ minter: minterTexts });

function statusOf(value: string | null | undefined): OnboardingStatus {
  return (ONBOARDING_STATUSES as readonly string[]).includes(value ?? '')
    ? (value as OnboardingStatus)
    : 'become_minter';
}

/**
 * The settings page's "Selling" section: the seller status kept on the own profile and the way
 * into the become-minter modal (which checks the live status with Stripe).
 */
export function SellerAccountSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const profile = useOwnProfile(userId);
  const status = statusOf(profile.data?.onboarding_status);
  const seller = isOnboarded(profile.data?.onboarding_status);

  let content;
  if (profile.isPending) {
    content = <Skeleton variant="rounded" height={48} aria-label={t('minter.checking')} />;
  } else if (profile.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void profile.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('onboarding.errors.refreshing')}
      </Alert>
    );
  } else {
    content = (
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="text.secondary" component="span">
            {t('minter.statusLabel')}
          </Typography>
          <Chip
            size="small"
            color={seller ? 'success' : status === 'become_minter' ? 'default' : 'info'}
            label={t(`minter.status.${status}`)}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t(`minter.intro.${status}`)}
        </Typography>
      </Box>
    );
  }

  return (
    <SettingsSection
      headingId={headingId}
      title={t('minter.section.title')}
      subtitle={t('minter.section.subtitle')}
      action={
        <Button
          variant={seller ? 'outlined' : 'contained'}
          startIcon={<StorefrontRoundedIcon />}
          onClick={() => becomeMinterModal.open()}
          disabled={profile.isPending}
        >
          {seller ? t('minter.section.manage') : t('minter.section.open')}
        </Button>
      }
    >
      {content}
    </SettingsSection>
  );
}
