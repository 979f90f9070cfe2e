import CreditCardOffRoundedIcon from '@mui/icons-material/CreditCardOffRounded';
import TaskAltRoundedIcon from '@mui/icons-material/TaskAltRounded';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import cardsTexts from '../../../locales/en.cards.json';
import { paymentKeys } from '../api/payments';
import { useAddCard } from '../hooks/useSavedCards';
import { ResultCard } from '../../../components/ResultCard';

addTranslations({ cards: cardsTexts });

/** How long "Card saved" stays before the payment methods page opens. */
export const CARD_SAVED_PAUSE_MS = 1_500;

/**
 * /stripe/payment/success (Checkout in setup mode came back with `?session_id=`): the card is
 * saved; the saved cards are refetched and the payment methods page follows.
 */
export function CardSetupSuccessPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('cards.success.pageTitle'), app: t('app.name') }),
    noIndex: true,
  });
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: paymentKeys.cards() });
    const timer = window.setTimeout(
      () => void navigate(PATHS.paymentMethods, { replace: true }),
      CARD_SAVED_PAUSE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [queryClient, navigate]);
  return (
    <ResultCard
      tone="success"
      icon={<TaskAltRoundedIcon />}
      title={t('cards.success.title')}
      body={<span role="status">{t('cards.success.body')}</span>}
      actions={
        <Button variant="contained" component={RouterLink} to={PATHS.paymentMethods} replace>
          {t('cards.success.go')}
        </Button>
      }
    />
  );
}

/** /stripe/payment/cancel: the user left Stripe's card form; nothing was saved. */
export function CardSetupCancelPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const add = useAddCard();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('cards.cancel.pageTitle'), app: t('app.name') }),
    noIndex: true,
  });
  return (
    <ResultCard
      tone="neutral"
      icon={<CreditCardOffRoundedIcon />}
      title={t('cards.cancel.title')}
      body={t('cards.cancel.body')}
      actions={
        <>
          <Button variant="contained" component={RouterLink} to={PATHS.paymentMethods} replace>
            {t('cards.cancel.back')}
          </Button>
          <Button
            variant="outlined"
            onClick={() => add.mutate()}
            loading={add.isPending || add.isSuccess}
          >
            {t('cards.cancel.retry')}
          </Button>
        </>
      }
    >
      {add.isError ? (
        <Alert severity="error" sx={{ textAlign: 'left' }}>
          {errorText(add.error)}
        </Alert>
      ) : null}
    </ResultCard>
  );
}
