import NotificationsActiveRoundedIcon from '@mui/icons-material/NotificationsActiveRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { EMAIL_GROUPS, type EmailGroup } from '@shared/schemas/notifications';
import { useId } from 'react';
import { SettingsSection } from '../../../components/SettingsSection';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { toasts } from '../../../lib/toast';
import { useEmailGroupSwitch, usePreferences } from '../hooks/usePreferences';
import notifyPrefsTexts from '../../../locales/en.notifyPrefs.json';

addTranslations({ notifyPrefs: notifyPrefsTexts });

/**
 * The notification preferences of /account/settings/general: in-app notifications are always on;
 * e-mail is on or off per group, each switch saved on its own as soon as it moves.
 */
export function NotifyPreferencesSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const listHeadingId = useId();
  const query = usePreferences(userId);

  let content;
  if (query.isPending) {
    content = (
      <Box role="status" aria-label={t('notifyPrefs.section.loading')}>
        {EMAIL_GROUPS.map((group) => (
          <Skeleton key={group} variant="rounded" height={56} sx={{ my: 1 }} />
        ))}
      </Box>
    );
  } else if (query.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            sx={{ whiteSpace: 'nowrap' }}
            onClick={() => void query.refetch()}
          >
            {t('common.retry')}
          </Button>
        }
      >
        {t('notifyPrefs.section.loadError')}
      </Alert>
    );
  } else {
    content = (
      <>
        <Typography
          id={listHeadingId}
          variant="subtitle2"
          component="h3"
          sx={{ color: 'text.secondary', mb: 0.5 }}
        >
          {t('notifyPrefs.section.emailHeading')}
        </Typography>
        <Box component="ul" aria-labelledby={listHeadingId} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {EMAIL_GROUPS.map((group) => (
            <GroupSwitch key={group} userId={userId} group={group} on={query.data.email[group]} />
          ))}
        </Box>
      </>
    );
  }

  return (
    <SettingsSection
      headingId={headingId}
      title={t('notifyPrefs.section.title')}
      subtitle={t('notifyPrefs.section.subtitle')}
    >
      <Box
        sx={{
          display: 'flex',
          gap: 1.5,
          alignItems: 'flex-start',
          p: 1.5,
          mb: 2,
          borderRadius: 2,
          bgcolor: 'action.hover',
        }}
      >
        <NotificationsActiveRoundedIcon
          aria-hidden
          fontSize="small"
          sx={{ color: 'primary.main', mt: 0.25 }}
        />
        <Typography variant="body2">{t('notifyPrefs.section.inApp')}</Typography>
      </Box>
      {content}
    </SettingsSection>
  );
}

function GroupSwitch({ userId, group, on }: { userId: string; group: EmailGroup; on: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const inputId = useId();
  const descriptionId = useId();
  const save = useEmailGroupSwitch(userId, group);
  const label = t(`notifyPrefs.groups.${group}.label`);
  const toggle = (next: boolean) =>
    save.mutate(next, {
      onError: (error) =>
        toasts.show({
          severity: 'error',
          message: t('notifyPrefs.section.saveFailed', { group: label, reason: errorText(error) }),
        }),
    });
  return (
    <Box
      component="li"
      aria-busy={save.isPending || undefined}
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        py: 1.25,
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography
          component="label"
          htmlFor={inputId}
          sx={{ display: 'block', fontWeight: 600, cursor: 'pointer' }}
        >
          {label}
        </Typography>
        <Typography id={descriptionId} variant="body2" color="text.secondary">
          {t(`notifyPrefs.groups.${group}.description`)}
        </Typography>
      </Box>
      <Switch
        id={inputId}
        checked={on}
        disabled={save.isPending}
        onChange={(event) => toggle(event.target.checked)}
        slotProps={{ input: { 'aria-describedby': descriptionId } }}
        sx={{ flexShrink: 0 }}
      />
    </Box>
  );
}
