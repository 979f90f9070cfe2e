import HourglassTopRoundedIcon from '@mui/icons-material/HourglassTopRounded';
import PendingActionsRoundedIcon from '@mui/icons-material/PendingActionsRounded';
import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import Button from '@mui/material/Button';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorCodeOf } from '../../../lib/api';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation, type TextKey } from '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import minterTexts from '../../../locales/en.minter.json';
import { refreshOnboarding } from '../api/payments';
import { externalNavigation } from '../externalNavigation';
import { callErrorKey, PENDING, windowOutcome } from '../minterFlow';
import { ResultCard } from '../../../components/ResultCard';

addTranslations({ minter: minterTexts });

/**
 * /stripe/payment/refresh, Stripe's refresh_url (spec 001 §2): the onboarding link expired or was
 * used, so this asks for a fresh one and goes on to it in place of this page. When there is
 * nothing to do on Stripe (pending: documents are asked for by e-mail; verifying) or the call
 * fails, it says so, with a retry.
 */
export function OnboardingRefreshPage() {
  const { t, i18n } = useTranslation();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('minter.refresh.pageTitle'), app: t('app.name') }),
    noIndex: true,
  });
  const refresh = useMutation({
    mutationFn: refreshOnboarding,
    onSuccess: (answer) => {
      const outcome = windowOutcome({ status: answer.onboarding_status, url: answer.url });
      if (outcome === 'navigate' && answer.url !== null) externalNavigation.replace(answer.url);
    },
    onError: () => undefined,
  });
  const { mutate } = refresh;
  // One link per visit (a second would invalidate the first).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    mutate();
  }, [mutate]);

  const settings = (
    <Button variant="outlined" component={RouterLink} to={PATHS.settings}>
      {t('minter.return.settings')}
    </Button>
  );

  if (refresh.isError) {
    const key = callErrorKey('refresh', errorCodeOf(refresh.error), (code) => i18n.exists(code));
    return (
      <ResultCard
        tone="error"
        icon={<WarningAmberRoundedIcon />}
        title={t('minter.refresh.failedTitle')}
        body={t(key as TextKey)}
        actions={
          <>
            <Button variant="contained" onClick={() => refresh.mutate()}>
              {t('common.retry')}
            </Button>
            {settings}
          </>
        }
      />
    );
  }
  if (refresh.isSuccess) {
    const { onboarding_status: status, url } = refresh.data;
    if (windowOutcome({ status, url }) === 'close') {
      const pending = status === 'pending';
      return (
        <ResultCard
          tone={pending ? 'warning' : 'info'}
          icon={pending ? <PendingActionsRoundedIcon /> : <HourglassTopRoundedIcon />}
          title={pending ? t('minter.return.pending.title') : t('minter.refresh.noLinkTitle')}
          body={pending ? t(PENDING as TextKey) : t(`minter.intro.${status}`)}
          actions={settings}
        />
      );
    }
  }
  // Asking, or on the way to Stripe.
  return <ResultCard busy title={t('minter.refresh.loading')} />;
}
