import EditRoundedIcon from '@mui/icons-material/EditRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import { useId } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { editProfileModal } from '../../../lib/editProfileStore';
import { useOwnProfile } from '../../../lib/ownProfile';
import settingsTexts from '../../../locales/en.settings.json';
import { SettingsSection } from '../../../components/SettingsSection';

addTranslations({ settings: settingsTexts });

/** The account details (read-only here) and the way into the profile editor. */
export function AccountSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const profile = useOwnProfile(userId);

  let content;
  if (profile.isPending) {
    content = (
      <Box role="status" aria-label={t('settings.account.loading')}>
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} height={40} />
        ))}
      </Box>
    );
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
        {t('settings.account.loadError')}
      </Alert>
    );
  } else {
    const data = profile.data;
    const rows: [string, string][] = [
      [t('settings.account.nick'), `@${data.nick}`],
      [
        t('settings.account.type'),
        data.user_option === 'company'
          ? t('settings.account.company')
          : t('settings.account.individual'),
      ],
      [t('settings.account.email'), data.email],
      [t('settings.account.phone'), data.phone || t('settings.account.none')],
    ];
    content = (
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '180px 1fr' },
          rowGap: { xs: 0.25, sm: 1.5 },
          columnGap: 2,
          '& dt': { color: 'text.secondary', fontSize: '0.875rem', mt: { xs: 1.25, sm: 0 } },
          '& dd': { m: 0, fontWeight: 500, overflowWrap: 'anywhere' },
        }}
      >
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Box>
        ))}
      </Box>
    );
  }

  return (
    <SettingsSection
      headingId={headingId}
      title={t('settings.account.title')}
      subtitle={t('settings.account.subtitle')}
      action={
        <Button
          variant="outlined"
          startIcon={<EditRoundedIcon />}
          onClick={() => editProfileModal.open()}
        >
          {t('settings.account.editProfile')}
        </Button>
      }
    >
      {content}
    </SettingsSection>
  );
}
