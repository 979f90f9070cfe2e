import AddRoundedIcon from '@mui/icons-material/AddRounded';
import CreditCardRoundedIcon from '@mui/icons-material/CreditCardRounded';
import DeleteOutlineRoundedIcon from '@mui/icons-material/DeleteOutlineRounded';
import StarRoundedIcon from '@mui/icons-material/StarRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { formatDate } from '@shared/dates';
import type { SavedCard } from '@shared/schemas/payments';
import { useEffect, useId, useState } from 'react';
import { Navigate } from 'react-router';
import { SettingsFrame } from '../../../components/SettingsFrame';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation, type TFunction } from '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import { toasts } from '../../../lib/toast';
import cardsTexts from '../../../locales/en.cards.json';
import settingsTexts from '../../../locales/en.settings.json';
import { SettingsSection } from '../../../components/SettingsSection';
import {
  useAddCard,
  useMakeDefaultCard,
  useRemoveCard,
  useSavedCards,
} from '../hooks/useSavedCards';

addTranslations({ cards: cardsTexts, settings: settingsTexts });

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "Visa •••• 4242": the brand's name (Stripe's brand code where we have none) and last four. */
export function cardName(
  card: Pick<SavedCard, 'brand' | 'last4'>,
  t: TFunction,
  exists: (key: string) => boolean,
): string {
  const key = `cards.brands.${card.brand}`;
  const brand = exists(key)
    ? t(key as 'cards.brands.visa')
    : card.brand
      ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1)
      : t('cards.brands.unknown');
  return t('cards.cardName', { brand, last4: card.last4 });
}

/** The expiry as cards print it: MM/YY. */
export function expiryOf(card: Pick<SavedCard, 'exp_month' | 'exp_year'>): string {
  return `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;
}

/**
 * /account/settings/paymentmethod (spec 001 §2): the saved cards while the fiat switch is on;
 * the general settings otherwise.
 */
export function PaymentMethodsRoute() {
  const { fiat } = useSwitches();
  const { user } = useAuth();
  if (!fiat) return <Navigate to={PATHS.settings} replace />;
  if (!user) return null;
  return <PaymentMethodsPage />;
}

/**
 * The saved cards (001 §3 "Saved card"): brand, funding, last four digits, expiry (with an
 * Expired badge), the date added and the default; add one on Stripe's hosted form, make one the
 * default, remove one after a confirmation.
 */
export function PaymentMethodsPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const headingId = useId();
  const query = useSavedCards();
  const add = useAddCard();
  const [removing, setRemoving] = useState<SavedCard | null>(null);
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('cards.title'), app: t('app.name') }),
    noIndex: true,
  });
  // Back from Stripe's form through the browser's cache: the button is usable again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) add.reset();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [add]);

  const cards = query.data ?? [];
  // Stays busy after the call answered: the browser is on its way to Stripe.
  const adding = add.isPending || add.isSuccess;
  const addButton = (variant: 'contained' | 'outlined') => (
    <Button
      variant={variant}
      startIcon={<AddRoundedIcon />}
      onClick={() => add.mutate()}
      loading={adding}
      loadingPosition="start"
    >
      {adding ? t('cards.adding') : t('cards.add')}
    </Button>
  );

  let content;
  if (query.isPending) {
    content = (
      <Box role="status" aria-label={t('cards.loading')} sx={{ display: 'grid', gap: 1.5 }}>
        {[0, 1].map((index) => (
          <Skeleton key={index} variant="rounded" height={88} />
        ))}
      </Box>
    );
  } else if (query.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        <strong>{t('cards.loadError')}</strong> {errorText(query.error)}
      </Alert>
    );
  } else if (cards.length === 0) {
    content = (
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          textAlign: 'center',
          gap: 1.5,
          py: 5,
          px: 2,
          border: 1,
          borderStyle: 'dashed',
          borderColor: 'divider',
          borderRadius: 3,
        }}
      >
        <CreditCardRoundedIcon aria-hidden sx={{ fontSize: 40, color: 'text.disabled' }} />
        <Typography component="p" sx={{ fontWeight: 600 }}>
          {t('cards.empty')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 420 }}>
          {t('cards.emptyBody')}
        </Typography>
        {addButton('contained')}
      </Box>
    );
  } else {
    content = (
      <>
        <Box
          component="ul"
          aria-labelledby={headingId}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1.5 }}
        >
          {cards.map((card) => (
            <CardItem key={card.id} card={card} onRemove={() => setRemoving(card)} />
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('cards.defaultHint')}
        </Typography>
      </>
    );
  }

  return (
    <SettingsFrame subtitle={t('cards.subtitle')}>
      <SettingsSection
        headingId={headingId}
        title={t('cards.listTitle')}
        action={query.isSuccess && cards.length > 0 ? addButton('outlined') : null}
      >
        {add.isError ? (
          <Alert severity="error" sx={{ mb: 2 }} onClose={() => add.reset()}>
            {errorText(add.error)}
          </Alert>
        ) : null}
        {content}
      </SettingsSection>
      {removing ? <RemoveCardDialog card={removing} onClose={() => setRemoving(null)} /> : null}
    </SettingsFrame>
  );
}

function CardItem({ card, onRemove }: { card: SavedCard; onRemove: () => void }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const makeDefault = useMakeDefaultCard();
  const name = cardName(card, t, (key) => i18n.exists(key));
  const funding = i18n.exists(`cards.funding.${card.funding}`)
    ? t(`cards.funding.${card.funding}` as 'cards.funding.credit')
    : null;
  const expiry = expiryOf(card);
  const details = [
    funding,
    card.expired ? t('cards.expiredOn', { date: expiry }) : t('cards.expires', { date: expiry }),
  ].filter(Boolean);
  const setDefault = () =>
    makeDefault.mutate(card, {
      onSuccess: () =>
        toasts.show({ severity: 'success', message: t('cards.defaultSet', { card: name }) }),
      onError: (error) => toasts.show({ severity: 'error', message: errorText(error) }),
    });
  return (
    <Box
      component="li"
      aria-label={name}
      sx={{
        p: 2,
        border: 1,
        borderColor: card.default ? 'primary.main' : 'divider',
        borderRadius: 2,
        display: 'flex',
        flexDirection: { xs: 'column', sm: 'row' },
        alignItems: { xs: 'stretch', sm: 'center' },
        gap: 1.5,
        justifyContent: 'space-between',
      }}
    >
      <Box sx={{ display: 'flex', gap: 1.5, minWidth: 0, alignItems: 'flex-start' }}>
        <Box
          aria-hidden
          sx={{
            width: 48,
            height: 34,
            flexShrink: 0,
            borderRadius: 1.5,
            display: 'grid',
            placeItems: 'center',
            bgcolor: card.expired ? 'action.disabledBackground' : 'rgba(79, 70, 229, 0.08)',
            color: card.expired ? 'text.disabled' : 'primary.main',
          }}
        >
          <CreditCardRoundedIcon />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography component="p" sx={{ fontWeight: 600 }}>
              {name}
            </Typography>
            {card.default ? (
              <Chip
                size="small"
                color="primary"
                icon={<StarRoundedIcon />}
                label={t('cards.default')}
              />
            ) : null}
            {card.expired ? (
              <Chip size="small" color="error" variant="outlined" label={t('cards.expired')} />
            ) : null}
          </Box>
          <Typography variant="body2" color={card.expired ? 'error' : 'text.primary'}>
            {details.join(' · ')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('cards.added', { date: formatDate(card.created, { timeZone: viewerZone() }) })}
          </Typography>
        </Box>
      </Box>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: { xs: 'flex-end', sm: 'flex-start' },
          gap: 0.5,
          flexShrink: 0,
        }}
      >
        {card.default || card.expired ? null : (
          <Button
            size="small"
            onClick={setDefault}
            loading={makeDefault.isPending}
            aria-label={t('cards.makeDefaultOf', { card: name })}
          >
            {t('cards.makeDefault')}
          </Button>
        )}
        <Tooltip title={t('cards.remove')} describeChild>
          <IconButton aria-label={t('cards.removeOf', { card: name })} onClick={onRemove}>
            <DeleteOutlineRoundedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
    </Box>
  );
}

function RemoveCardDialog({ card, onClose }: { card: SavedCard; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const remove = useRemoveCard();
  const titleId = useId();
  const bodyId = useId();
  const busy = remove.isPending;
  const name = cardName(card, t, (key) => i18n.exists(key));
  const confirm = () =>
    remove.mutate(card, {
      onSuccess: () => {
        toasts.show({ severity: 'success', message: t('cards.removed', { card: name }) });
        onClose();
      },
    });
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      slotProps={{ paper: { sx: { maxWidth: 440, m: 2 } } }}
    >
      <DialogTitle id={titleId}>{t('cards.removeTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={bodyId}>
          {card.default
            ? t('cards.removeDefaultBody', { card: name })
            : t('cards.removeBody', { card: name })}
        </DialogContentText>
        {remove.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(remove.error)}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy} color="inherit">
          {t('common.cancel')}
        </Button>
        <Button onClick={confirm} loading={busy} variant="contained" color="error">
          {t('cards.remove')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
