import LinkOffRoundedIcon from '@mui/icons-material/LinkOffRounded';
import MarkEmailReadRoundedIcon from '@mui/icons-material/MarkEmailReadRounded';
import UnsubscribeRoundedIcon from '@mui/icons-material/UnsubscribeRounded';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { readUnsubscribeToken } from '@shared/schemas/notifications';
import type { ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ResultCard, type ResultTone } from '../../../components/ResultCard';
import { errorCodeOf } from '../../../lib/api';
import { LOGIN_PATH, useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import { useUnsubscribe } from '../hooks/usePreferences';
import notifyPrefsTexts from '../../../locales/en.notifyPrefs.json';

addTranslations({ notifyPrefs: notifyPrefsTexts });

const INVALID = 'notifications.errors.unsubscribe_invalid';

/**
 * /unsubscribe?token=… (the e-mails' link; no login needed): names the e-mails it stops and
 * unsubscribes only when asked (mail scanners open links; the call is a POST), then says it is
 * done. A token that is not one of ours, or that the server refuses, shows the way to the settings.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const parsed = token === '' ? null : readUnsubscribeToken(token);
  const call = useUnsubscribe();
  usePageMeta({
    title: t('meta.titleTemplate', {
      page: t('notifyPrefs.unsubscribe.metaTitle'),
      app: t('app.name'),
    }),
    noIndex: true,
  });

  if (parsed === null || (call.isError && errorCodeOf(call.error) === INVALID)) {
    return (
      <UnsubscribeCard
        tone="error"
        icon={<LinkOffRoundedIcon />}
        title={t('notifyPrefs.unsubscribe.invalidTitle')}
        body={t(INVALID)}
        actions={<WayOut />}
      />
    );
  }

  const about = (group: typeof parsed.group) => t(`notifyPrefs.groups.${group}.about`);
  if (call.isSuccess) {
    return (
      <UnsubscribeCard
        tone="success"
        icon={<MarkEmailReadRoundedIcon />}
        title={t('notifyPrefs.unsubscribe.doneTitle')}
        body={t('notifyPrefs.unsubscribe.doneBody', { group: about(call.data) })}
        note={t('notifyPrefs.unsubscribe.doneNote')}
        actions={<WayOut />}
        live
      />
    );
  }

  const busy = call.isPending;
  return (
    <UnsubscribeCard
      tone="info"
      icon={<UnsubscribeRoundedIcon />}
      title={t('notifyPrefs.unsubscribe.confirmTitle')}
      body={t('notifyPrefs.unsubscribe.confirmBody', { group: about(parsed.group) })}
      note={t('notifyPrefs.unsubscribe.confirmNote')}
      actions={
        <Button
          variant="contained"
          size="large"
          loading={busy}
          loadingPosition="start"
          startIcon={<UnsubscribeRoundedIcon />}
          onClick={() => call.mutate(token)}
        >
          {busy
            ? t('notifyPrefs.unsubscribe.confirming')
            : call.isError
              ? t('notifyPrefs.unsubscribe.retry')
              : t('notifyPrefs.unsubscribe.confirm')}
        </Button>
      }
    >
      {call.isError ? (
        <Alert severity="error" role="alert" sx={{ width: '100%', textAlign: 'left' }}>
          {t('notifyPrefs.unsubscribe.failed', { reason: errorText(call.error) })}
        </Alert>
      ) : null}
    </UnsubscribeCard>
  );
}

/** To the e-mail settings: directly when logged in, through the login otherwise. */
function WayOut() {
  const { t } = useTranslation();
  const { status } = useAuth();
  return (
    <>
      {status === 'guest' ? (
        <Button
          component={RouterLink}
          to={LOGIN_PATH}
          state={{ returnTo: PATHS.settings }}
          variant="contained"
        >
          {t('notifyPrefs.unsubscribe.logInToSettings')}
        </Button>
      ) : (
        <Button component={RouterLink} to={PATHS.settings} variant="contained">
          {t('notifyPrefs.unsubscribe.openSettings')}
        </Button>
      )}
      <Button component={RouterLink} to="/" variant="text">
        {t('notifyPrefs.unsubscribe.home')}
      </Button>
    </>
  );
}

/** The page's one card: an icon, the heading, what happens (and a note), then the way on. */
function UnsubscribeCard({
  tone,
  icon,
  title,
  body,
  note,
  actions,
  live = false,
  children,
}: {
  tone: ResultTone;
  icon: ReactNode;
  title: string;
  body: string;
  note?: string;
  actions: ReactNode;
  /** Announced when it appears (the outcome of the button). */
  live?: boolean;
  children?: ReactNode;
}) {
  return (
    <ResultCard tone={tone} icon={icon} title={title} actions={actions} live={live}>
      <Typography sx={{ fontWeight: 500, maxWidth: 440 }}>{body}</Typography>
      {note ? (
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 440 }}>
          {note}
        </Typography>
      ) : null}
      {children}
    </ResultCard>
  );
}
