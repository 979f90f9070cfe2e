import HourglassTopRoundedIcon from '@mui/icons-material/HourglassTopRounded';
import MarkEmailUnreadRoundedIcon from '@mui/icons-material/MarkEmailUnreadRounded';
import PendingActionsRoundedIcon from '@mui/icons-material/PendingActionsRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import TaskAltRoundedIcon from '@mui/icons-material/TaskAltRounded';
import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { OnboardingStatus } from '@shared/onboarding';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorCodeOf } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { becomeMinterModal } from '../../../lib/becomeMinterStore';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation, type TextKey } from '../../../lib/i18n';
import { useLiveMessages } from '../../../lib/liveChannel';
import { ownProfileQueryKey } from '../../../lib/ownProfile';
import { PATHS } from '../../../lib/paths';
import minterTexts from '../../../locales/en.minter.json';
import { checkOnboarding, paymentKeys, refreshOnboarding } from '../api/payments';
import { externalNavigation } from '../externalNavigation';
import {
  CHECK_FAILED,
  callErrorKey,
  isSeller,
  NOT_ONBOARDED,
  PENDING,
  windowOutcome,
} from '../minterFlow';
import { MINTER_RETURNED } from '../onboardingWindow';
import { ResultCard, type ResultTone } from '../../../components/ResultCard';

addTranslations({ minter: minterTexts });

export const minterCheckKey = [...paymentKeys.all, 'minter-check'] as const;

/** The check's status; a user the server has not onboarded is become_minter (001 §4). */
async function checkedStatus(signal?: AbortSignal): Promise<OnboardingStatus> {
  try {
    return (await checkOnboarding(signal)).onboarding_status;
  } catch (error) {
    if (errorCodeOf(error) === NOT_ONBOARDED) return 'become_minter';
    throw error;
  }
}

/** The window that opened this one (the app's window with the become-minter modal), if any. */
function openerWindow(): Window | null {
  try {
    const opener = window.opener as Window | null;
    return opener && !opener.closed ? opener : null;
  } catch {
    return null;
  }
}

const OUTCOMES: Record<OnboardingStatus, { tone: ResultTone; icon: ReactNode }> = {
  success: { tone: 'success', icon: <TaskAltRoundedIcon /> },
  complete: { tone: 'success', icon: <TaskAltRoundedIcon /> },
  verifying: { tone: 'info', icon: <HourglassTopRoundedIcon /> },
  pending: { tone: 'warning', icon: <PendingActionsRoundedIcon /> },
  pending_email: { tone: 'warning', icon: <MarkEmailUnreadRoundedIcon /> },
  continue_onboarding: { tone: 'info', icon: <StorefrontRoundedIcon /> },
  become_minter: { tone: 'neutral', icon: <StorefrontRoundedIcon /> },
};

/**
 * /stripe/onboarding/minter, Stripe's return_url after Connect onboarding (spec 001 §2): checks
 * the status and shows where onboarding stands (a seller now, Stripe verifying, documents due,
 * still to finish). Opened in the onboarding window, it tells the window that opened it (whose
 * modal then checks again) and offers to close; opened on its own, it links to the profile and
 * the settings. It follows the status live until the user is a seller.
 */
export function MinterReturnPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // Never rendered on a server (it needs the session), so it may read the window on its first render.
  const [opener] = useState<Window | null>(openerWindow);
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('minter.return.pageTitle'), app: t('app.name') }),
    noIndex: true,
  });

  const query = useQuery({
    queryKey: minterCheckKey,
    queryFn: ({ signal }) => checkedStatus(signal),
    staleTime: 0,
  });
  const status = query.data;

  // The check kept the status on the user: the own profile follows, and so does the opener.
  useEffect(() => {
    if (status === undefined) return;
    if (user) void queryClient.invalidateQueries({ queryKey: ownProfileQueryKey(user.id) });
    try {
      openerWindow()?.postMessage({ type: MINTER_RETURNED, status }, window.location.origin);
    } catch {
      // The opener went elsewhere.
    }
  }, [status, user, queryClient]);

  useLiveMessages(
    useCallback(
      (message) => {
        if (message.type === 'stripe.updated') void query.refetch();
      },
      [query],
    ),
    status !== undefined && !isSeller(status),
  );

  const resume = useMutation({
    mutationFn: refreshOnboarding,
    onSuccess: (answer) => {
      const outcome = windowOutcome({ status: answer.onboarding_status, url: answer.url });
      if (outcome === 'navigate' && answer.url !== null) externalNavigation.assign(answer.url);
      else void query.refetch();
    },
    onError: () => undefined,
  });

  if (query.isPending) {
    return <ResultCard busy title={t('minter.return.checking')} />;
  }
  if (query.isError) {
    return (
      <ResultCard
        tone="error"
        icon={<WarningAmberRoundedIcon />}
        title={t(CHECK_FAILED as TextKey)}
        actions={
          <Button
            variant="contained"
            onClick={() => void query.refetch()}
            loading={query.isFetching}
          >
            {t('common.retry')}
          </Button>
        }
      />
    );
  }

  const current = query.data;
  const outcome = OUTCOMES[current];
  const resumeLeaving =
    resume.isSuccess &&
    windowOutcome({ status: resume.data.onboarding_status, url: resume.data.url }) === 'navigate';
  const resumeError = resume.isError
    ? callErrorKey('refresh', errorCodeOf(resume.error), (key) => i18n.exists(key))
    : resume.isSuccess && resume.data.onboarding_status === 'pending'
      ? PENDING
      : null;

  let primary: ReactNode = null;
  if (current === 'continue_onboarding') {
    primary = (
      <Button
        variant="contained"
        onClick={() => resume.mutate()}
        loading={resume.isPending || resumeLeaving}
      >
        {t('minter.return.continue')}
      </Button>
    );
  } else if (current === 'become_minter') {
    primary = (
      <Button variant="contained" onClick={() => becomeMinterModal.open()}>
        {t('minter.cta')}
      </Button>
    );
  }

  const ways = opener ? (
    <Button variant={primary ? 'outlined' : 'contained'} onClick={() => window.close()}>
      {t('minter.return.closeWindow')}
    </Button>
  ) : (
    <>
      {user?.nick ? (
        <Button
          variant={primary ? 'outlined' : 'contained'}
          component={RouterLink}
          to={`/${user.nick}`}
        >
          {t('minter.return.profile')}
        </Button>
      ) : null}
      <Button variant="outlined" component={RouterLink} to={PATHS.settings}>
        {t('minter.return.settings')}
      </Button>
    </>
  );

  return (
    <ResultCard
      tone={outcome.tone}
      icon={outcome.icon}
      title={t(`minter.return.${current === 'complete' ? 'success' : current}.title`)}
      body={t(`minter.return.${current === 'complete' ? 'success' : current}.body`)}
      actions={
        <>
          {primary}
          {ways}
        </>
      }
    >
      {query.isFetching ? (
        <Typography variant="body2" color="text.secondary" role="status">
          {t('minter.checking')}
        </Typography>
      ) : null}
      {resumeError ? (
        <Alert severity={resumeError === PENDING ? 'warning' : 'error'} sx={{ textAlign: 'left' }}>
          {t(resumeError as TextKey)}
        </Alert>
      ) : null}
      {opener ? (
        <Typography variant="body2" color="text.secondary">
          {t('minter.return.closeHint')}
        </Typography>
      ) : null}
    </ResultCard>
  );
}
