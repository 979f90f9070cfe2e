import CreditCardRoundedIcon from '@mui/icons-material/CreditCardRounded';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CardPayment, Order } from '@shared/schemas/orders';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { LoadingBlock, RetryAlert } from '../../../components/LoadingBlock';
import { LeaveGuardDialog } from '../../../components/LeaveGuardDialog';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import {
  createCheckoutSession,
  orderKeys,
  orderPath,
  payWithSavedCard,
  paymentNavigation,
} from '../../../lib/orders';
import checkoutTexts from '../../../locales/en.checkout.json';
import { useSavedCards } from '../hooks/useCheckout';
import { cardName } from './CheckoutParts';
import { Section } from './CopiesStep';

addTranslations({ checkout: checkoutTexts });

/** Where the page goes once a payment call answered (after the leave guard let go). */
type Exit = { kind: 'app'; to: string } | { kind: 'external'; url: string };

/**
 * Step 3, payment (spec 000 §2 "item payment"): a saved card first ("Pay $12,50 with Visa ••••
 * 4242"; the default preselected), then a new card on Stripe Checkout in this tab. A card
 * payment that went through (or is processing) opens the order page; one the bank must confirm
 * goes to the bank's page; a declined one says why and stays here, the booking still running.
 */
export function PaymentStep({
  order,
  userId,
  disabled,
  onBack,
}: {
  order: Order;
  userId: string;
  /** The booking expired: nothing can be paid. */
  disabled: boolean;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const cards = useSavedCards(userId);
  const usable = (cards.data ?? []).filter((card) => !card.expired);
  const [chosen, setChosen] = useState<string | null>(null);
  const selectedCard =
    usable.find((card) => card.id === chosen) ??
    usable.find((card) => card.default) ??
    usable[0] ??
    null;
  const [problem, setProblem] = useState<string | null>(null);
  const [exit, setExit] = useState<Exit | null>(null);
  const amount = priceText(order.due_now, order.currency);

  const pay = useMutation({
    mutationFn: (paymentMethod: string) => payWithSavedCard(order.id, paymentMethod),
    onSuccess: (payment: CardPayment) => {
      if (payment.status === 'succeeded' || payment.status === 'processing') {
        void queryClient.invalidateQueries({ queryKey: orderKeys.detail(order.id) });
        setExit({ kind: 'app', to: orderPath(order.id) });
      } else if (payment.status === 'requires_action' && payment.next_action_url) {
        setExit({ kind: 'external', url: payment.next_action_url });
      } else {
        const code = payment.error ?? 'checkout.errors.paying';
        setProblem(errorText(new ApiError({ code, status: 402 })));
      }
    },
    onError: (error) => setProblem(errorText(error)),
  });
  const newCard = useMutation({
    mutationFn: () => createCheckoutSession(order.id),
    onSuccess: (session) => setExit({ kind: 'external', url: session.url }),
    onError: (error) => setProblem(errorText(error)),
  });
  const calling = pay.isPending || newCard.isPending;
  const busy = calling || exit !== null;

  // Leaves once the call is over, so the leave guard (beforeunload, held links) has let go.
  useEffect(() => {
    if (exit === null || calling) return;
    if (exit.kind === 'external') paymentNavigation.assign(exit.url);
    else void navigate(exit.to);
  }, [exit, calling, navigate]);
  // Back from Stripe through the browser's cache: the buttons are usable again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setExit(null);
      pay.reset();
      newCard.reset();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [pay, newCard]);

  const lastError = order.payment_error;
  const shownProblem =
    problem ?? (lastError ? errorText(new ApiError({ code: lastError, status: 402 })) : null);
  const payingWithCard = pay.isPending || (exit !== null && pay.isSuccess);
  const opening = newCard.isPending || (exit !== null && newCard.isSuccess);

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Section title={t('checkout.payment.title')}>
        <Typography sx={{ fontWeight: 600 }}>{t('checkout.payment.amount', { amount })}</Typography>
        {shownProblem ? (
          <Alert
            severity="error"
            role="alert"
            onClose={problem ? () => setProblem(null) : undefined}
          >
            {shownProblem}
          </Alert>
        ) : null}
        {cards.isPending ? (
          <LoadingBlock label={t('checkout.payment.cardsLoading')} height={48} />
        ) : cards.isError ? (
          <RetryAlert onRetry={() => void cards.refetch()}>
            {t('checkout.payment.cardsFailed')}
          </RetryAlert>
        ) : selectedCard ? (
          <Box sx={{ display: 'grid', gap: 1.5 }}>
            {usable.length > 1 ? (
              <RadioGroup
                aria-label={t('checkout.payment.cards')}
                value={selectedCard.id}
                onChange={(event) => setChosen(event.target.value)}
              >
                {usable.map((card) => (
                  <FormControlLabel
                    key={card.id}
                    value={card.id}
                    disabled={busy || disabled}
                    control={<Radio />}
                    label={
                      <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                        {cardName(card, t, (key) => i18n.exists(key))}
                        {card.default ? (
                          <Chip
                            size="small"
                            component="span"
                            label={t('checkout.payment.default')}
                          />
                        ) : null}
                      </Box>
                    }
                  />
                ))}
              </RadioGroup>
            ) : null}
            <Button
              variant="contained"
              size="large"
              startIcon={<CreditCardRoundedIcon />}
              loading={payingWithCard}
              loadingPosition="start"
              disabled={disabled || busy}
              onClick={() => {
                setProblem(null);
                pay.mutate(selectedCard.id);
              }}
              sx={{ justifySelf: { xs: 'stretch', sm: 'start' } }}
            >
              {payingWithCard
                ? t('checkout.payment.paying')
                : t('checkout.payment.payWith', {
                    amount,
                    card: cardName(selectedCard, t, (key) => i18n.exists(key)),
                  })}
            </Button>
            <Divider>{t('checkout.payment.or')}</Divider>
          </Box>
        ) : null}
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Button
            variant={selectedCard ? 'outlined' : 'contained'}
            size="large"
            startIcon={<LockOutlinedIcon />}
            loading={opening}
            loadingPosition="start"
            disabled={disabled || busy}
            onClick={() => {
              setProblem(null);
              newCard.mutate();
            }}
            sx={{ justifySelf: { xs: 'stretch', sm: 'start' } }}
          >
            {opening ? t('checkout.payment.opening') : t('checkout.payment.newCard')}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {t('checkout.payment.newCardNote')}
          </Typography>
        </Box>
      </Section>
      <Box>
        <Button onClick={onBack} disabled={busy} color="inherit">
          {t('checkout.payment.back')}
        </Button>
      </Box>
      <LeaveGuardDialog active={calling} />
    </Box>
  );
}
