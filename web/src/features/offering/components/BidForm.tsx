import AddCardRoundedIcon from '@mui/icons-material/AddCardRounded';
import AddLocationAltRoundedIcon from '@mui/icons-material/AddLocationAltRounded';
import GavelRoundedIcon from '@mui/icons-material/GavelRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatAmount } from '@shared/format';
import { CURRENCIES, money, parseAmount } from '@shared/money';
import type { Address } from '@shared/schemas/addresses';
import type { AuctionView, CreateBidBody } from '@shared/schemas/bids';
import type { OfferingCard, OfferingDetail } from '@shared/schemas/offerings';
import type { SavedCard } from '@shared/schemas/payments';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { bidStatusKey } from '../../../components/BidStatusChip';
import { LoadingBlock, RetryAlert } from '../../../components/LoadingBlock';
import { deliversTo, postalOf, SavedAddressChoice } from '../../../components/SavedAddressChoice';
import { ApiError } from '../../../lib/api';
import { bidKeys } from '../../../lib/bids';
import { countryName } from '../../../lib/countries';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation, type TextKey } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { PATHS } from '../../../lib/paths';
import { cardLabel } from '../auctionFormat';
import { bidProblem, incrementAt, isStanding, suggestedBid, type BidField } from '../bidRules';
import { useBidAddresses, useBidCards, useItemShipping, usePlaceBid } from '../hooks/useAuction';
import offeringTexts from '../../../locales/en.offering.json';
import checkoutTexts from '../../../locales/en.checkout.json';

addTranslations({ offering: offeringTexts, checkout: checkoutTexts });

/** The form's parts a refusal's `fields` can name. */
type ProblemField = BidField | 'card' | 'address';

/** The address choice "keep the address of my earlier bid" (the server kept it). */
const KEEP = 'keep';

/** A refusal's field (bid/create's body path) as the form's part. */
function partOf(path: string): ProblemField | null {
  if (path === 'bidprice' || path === 'maxbid' || path === 'quantity') return path;
  if (path === 'payment_method') return 'card';
  if (path === 'postaladdress' || path.startsWith('postaladdress.')) return 'address';
  return null;
}

/** Refusals that mean the lot moved: it is read again (the new minimum, the end). */
const LOT_MOVED = new Set([
  'market.bid.errors.beaten',
  'market.bid.errors.too_low',
  'market.bid.errors.not_higher',
  'market.bid.errors.ended',
  'market.bid.errors.not_started',
  'market.bid.errors.too_many_bidders',
  'market.bid.errors.one_copy',
  'market.bid.errors.rebid_quantity',
]);

/** The text typed as minor units: null when empty, NaN when it is no amount of the currency. */
function minorOf(text: string, currency: AuctionView['currency']): number | null {
  if (text.trim() === '') return null;
  return parseAmount(text, currency)?.amount ?? Number.NaN;
}

/**
 * The bid form (spec 000 §5 bid rules): the amount per copy (the minimum next bid to start with),
 * an optional secret maximum for automatic bidding, the copies on a multi-copy lot, the saved
 * card that backs the bid, and for a delivered item the address. The shared auction rules check
 * it as it is typed; the server's refusals show under their fields or above the button.
 */
export function BidForm({
  offering,
  lot,
  userId,
}: {
  offering: OfferingCard | OfferingDetail;
  lot: AuctionView;
  userId: string;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const formId = useId();
  const cardLabelId = useId();
  const currency = lot.currency;
  const symbol = CURRENCIES[currency].symbol;
  const price = (amount: number) => priceText(amount, currency);
  const typed = (amount: number) => formatAmount(money(amount, currency));

  const suggestion = suggestedBid(lot);
  const standing = isStanding(lot);
  const mine = lot.mine;
  // Until typed in, the fields follow the lot (a new minimum, live).
  const [amountText, setAmountText] = useState<string | null>(null);
  const [maxText, setMaxText] = useState<string | null>(null);
  const [quantityText, setQuantityText] = useState('1');
  const [cardChoice, setCardChoice] = useState<string | null>(null);
  const [addressChoice, setAddressChoice] = useState<string | null>(null);
  const [serverFields, setServerFields] = useState<Partial<Record<ProblemField, string>>>({});
  const [problem, setProblem] = useState<{ code: string; text: string } | null>(null);
  const [placed, setPlaced] = useState<AuctionView['mine'] | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const amountShown = amountText ?? typed(suggestion.amount);
  const maxShown = maxText ?? (suggestion.max === null ? '' : typed(suggestion.max));
  const quantity = standing && mine ? mine.quantity : lot.multi_copy ? Number(quantityText) : 1;
  const draft = {
    amount: minorOf(amountShown, currency) ?? Number.NaN,
    max: minorOf(maxShown, currency),
    quantity,
  };
  const local = bidProblem(lot, draft, new Date(), offering.start_at);

  // The card: the one on the caller's bid, else the default, else the first usable.
  const cards = useBidCards(userId, true);
  const usable = (cards.data ?? []).filter((card) => !card.expired);
  const selectedCard: SavedCard | null =
    usable.find((card) => card.id === cardChoice) ??
    usable.find((card) => card.id === mine?.card?.id) ??
    usable.find((card) => card.default) ??
    usable[0] ??
    null;
  const noCard = cards.isSuccess && selectedCard === null;

  // The address, for an item delivered to the winner.
  const physical = offering.item.product_type === 'physical';
  const item = useItemShipping(offering.item.id, userId, physical);
  const shipping = physical ? (item.data?.shipping ?? null) : null;
  const delivered = shipping?.mode === 'delivery';
  const countries = useMemo(
    () => (shipping?.mode === 'delivery' ? shipping.countries : []),
    [shipping],
  );
  const addresses = useBidAddresses(userId, delivered);
  const saved = addresses.data ?? [];
  // A bidder's address is kept from their earlier bid: it stays unless they choose another.
  const hasKept = mine !== null;
  const firstChoice: string | null =
    (hasKept ? KEEP : null) ??
    saved.find((address) => address.default && deliversTo(countries, address))?.id ??
    saved.find((address) => deliversTo(countries, address))?.id ??
    null;
  const addressValue = addressChoice ?? firstChoice;
  const chosenAddress: Address | undefined = saved.find((address) => address.id === addressValue);
  const noAddress = delivered && addresses.isSuccess && addressValue === null;

  const place = usePlaceBid(lot.offeringid, userId);

  const fieldText = (field: ProblemField): string | undefined => {
    const server = serverFields[field];
    if (server) return server;
    if (
      local &&
      local.field === field &&
      (submitted || field !== 'bidprice' || amountText !== null)
    ) {
      return t(local.code as TextKey);
    }
    return undefined;
  };
  const edit = (field: ProblemField) => {
    if (serverFields[field]) setServerFields(({ [field]: _gone, ...rest }) => rest);
    setPlaced(null);
  };

  const onError = (error: unknown) => {
    const code = error instanceof ApiError ? error.code : 'unexpected';
    if (LOT_MOVED.has(code)) {
      void queryClient.invalidateQueries({ queryKey: bidKeys.lots(lot.offeringid) });
    }
    if (code === 'market.bid.errors.beaten' || code === 'market.bid.errors.too_low') {
      // The field takes the new minimum: at once when the refusal says it, else once the lot is
      // read again (a second click must not send the refused amount again).
      const minimBid = error instanceof ApiError ? error.details?.minimBid : undefined;
      if (typeof minimBid === 'number') {
        queryClient.setQueriesData<AuctionView>(
          { queryKey: bidKeys.lots(lot.offeringid) },
          (known) =>
            known === undefined || known.minimBid >= minimBid ? known : { ...known, minimBid },
        );
      }
      setAmountText(null);
      setMaxText(null);
    }
    if (code === 'market.bid.errors.no_card') {
      setProblem({ code, text: errorText(error) });
      return;
    }
    const fields: Partial<Record<ProblemField, string>> = {};
    if (error instanceof ApiError && error.fields) {
      for (const [path, fieldCode] of Object.entries(error.fields)) {
        const part = partOf(path);
        if (part && !fields[part])
          fields[part] = errorText(new ApiError({ code: fieldCode, status: error.status }));
      }
    }
    setServerFields(fields);
    setProblem(Object.keys(fields).length > 0 ? null : { code, text: errorText(error) });
  };

  const submit = () => {
    setSubmitted(true);
    setProblem(null);
    setPlaced(null);
    setServerFields({});
    if (local) {
      if (local.field === null) setProblem({ code: local.code, text: t(local.code as TextKey) });
      return;
    }
    const body: CreateBidBody = {
      offeringid: lot.offeringid,
      bidprice: draft.amount,
      maxbid: draft.max,
      currency,
      quantity,
      payment_method: selectedCard?.id ?? null,
      postaladdress: delivered && chosenAddress ? postalOf(chosenAddress) : null,
    };
    place.mutate(body, {
      onSuccess: (view) => {
        setPlaced(view.mine);
        setAmountText(null);
        setMaxText(null);
        setSubmitted(false);
      },
      onError,
    });
  };

  const busy = place.isPending;
  const blocked = noCard || noAddress;
  const amountError = fieldText('bidprice');
  const maxError = fieldText('maxbid');
  const quantityError = fieldText('quantity');
  const moneySlots = {
    input: { startAdornment: <InputAdornment position="start">{symbol}</InputAdornment> },
    htmlInput: { inputMode: 'decimal' as const },
  };
  const total =
    quantity > 1 && Number.isFinite(draft.amount) ? price(draft.amount * quantity) : null;

  let cardPart: ReactNode;
  if (cards.isPending) {
    cardPart = <LoadingBlock label={t('offering.bidding.form.cardsLoading')} height={40} />;
  } else if (cards.isError) {
    cardPart = (
      <RetryAlert onRetry={() => void cards.refetch()}>
        {t('offering.bidding.form.cardsFailed')}
      </RetryAlert>
    );
  } else if (selectedCard === null) {
    cardPart = (
      <AddPrompt
        text={t('market.bid.errors.no_card')}
        action={t('offering.bidding.form.addCard')}
        to={PATHS.paymentMethods}
        icon={<AddCardRoundedIcon />}
      />
    );
  } else {
    const name = (card: SavedCard) => cardLabel(card, t, (key) => i18n.exists(key));
    const badges = (card: SavedCard) => (
      <>
        {card.default ? (
          <Chip size="small" component="span" label={t('offering.bidding.form.default')} />
        ) : null}
        {card.id === mine?.card?.id ? (
          <Chip
            size="small"
            variant="outlined"
            component="span"
            label={t('offering.bidding.form.bidCard')}
          />
        ) : null}
      </>
    );
    cardPart =
      usable.length > 1 ? (
        <RadioGroup
          aria-labelledby={cardLabelId}
          value={selectedCard.id}
          onChange={(event) => {
            setCardChoice(event.target.value);
            edit('card');
          }}
        >
          {usable.map((card) => (
            <FormControlLabel
              key={card.id}
              value={card.id}
              disabled={busy}
              control={<Radio />}
              label={
                <Box
                  component="span"
                  sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
                >
                  {name(card)}
                  {badges(card)}
                </Box>
              }
            />
          ))}
        </RadioGroup>
      ) : (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography component="span">{name(selectedCard)}</Typography>
          {badges(selectedCard)}
        </Box>
      );
  }

  // Where a refused address shows: under the choice, or (no choice on screen) as an alert.
  const addressShown = delivered && addresses.isSuccess && addressValue !== null;
  const orphanAddressError =
    serverFields.address !== undefined && !addressShown ? serverFields.address : null;
  let addressPart: ReactNode = null;
  if (physical && item.isPending) {
    addressPart = <LoadingBlock label={t('offering.bidding.form.addressesLoading')} height={56} />;
  } else if (physical && item.isError) {
    addressPart = (
      <RetryAlert onRetry={() => void item.refetch()}>
        {t('offering.bidding.form.addressesFailed')}
      </RetryAlert>
    );
  } else if (delivered) {
    const addressError = fieldText('address');
    addressPart = (
      <Box sx={{ display: 'grid', gap: 1 }}>
        {countries.length > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('offering.bidding.form.deliversTo', {
              countries: countries.map((code) => countryName(code, i18n.language)).join(', '),
            })}
          </Typography>
        ) : null}
        {addresses.isPending ? (
          <LoadingBlock label={t('offering.bidding.form.addressesLoading')} height={56} />
        ) : addresses.isError ? (
          <RetryAlert onRetry={() => void addresses.refetch()}>
            {t('offering.bidding.form.addressesFailed')}
          </RetryAlert>
        ) : addressValue === null ? (
          <AddPrompt
            text={t('offering.bidding.form.noAddress')}
            action={t('offering.bidding.form.addAddress')}
            to={PATHS.settings}
            icon={<AddLocationAltRoundedIcon />}
          />
        ) : (
          <FormControl error={addressError !== undefined}>
            <SavedAddressChoice
              label={t('offering.bidding.form.address')}
              addresses={saved}
              countries={countries}
              value={addressValue}
              onChange={(value) => {
                setAddressChoice(value);
                edit('address');
              }}
              disabled={busy}
            >
              {hasKept ? (
                <FormControlLabel
                  value={KEEP}
                  disabled={busy}
                  control={<Radio />}
                  label={t('offering.bidding.form.keepAddress')}
                />
              ) : null}
            </SavedAddressChoice>
            <FormHelperText>
              {addressError ?? t('offering.bidding.form.addressNote')}
            </FormHelperText>
          </FormControl>
        )}
      </Box>
    );
  }

  const cardError = fieldText('card');
  return (
    <Paper
      variant="outlined"
      component="form"
      noValidate
      aria-labelledby={formId}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      sx={{ p: { xs: 1.5, sm: 2 }, mt: 2, display: 'grid', gap: 2 }}
    >
      <Typography id={formId} variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
        {suggestion.raise
          ? t('offering.bidding.form.raiseTitle')
          : standing
            ? t('offering.bidding.form.rebidTitle')
            : t('offering.bidding.form.title')}
      </Typography>
      {placed && placed.status === mine?.status ? (
        <PlacedAlert
          outcome={bidStatusKey(placed.status, lot.reserve)}
          onClose={() => setPlaced(null)}
        />
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: '1fr',
            sm: lot.multi_copy && !standing ? '1fr 1fr 140px' : '1fr 1fr',
          },
          alignItems: 'start',
        }}
      >
        <TextField
          label={t('offering.bidding.form.amount')}
          value={amountShown}
          onChange={(event) => {
            setAmountText(event.target.value);
            edit('bidprice');
          }}
          required
          disabled={busy}
          error={amountError !== undefined}
          helperText={
            amountError ??
            (suggestion.raise && mine
              ? t('offering.bidding.form.raiseHelp', {
                  price: price(mine.amount),
                  max: price(mine.max),
                })
              : t('offering.bidding.form.amountHelp', {
                  min: price(lot.minimBid),
                  step: price(incrementAt(lot.minimBid)),
                }))
          }
          slotProps={moneySlots}
          fullWidth
        />
        <TextField
          label={t('offering.bidding.form.max')}
          value={maxShown}
          onChange={(event) => {
            setMaxText(event.target.value);
            edit('maxbid');
          }}
          disabled={busy}
          error={maxError !== undefined}
          helperText={maxError ?? t('offering.bidding.form.maxHelp')}
          slotProps={moneySlots}
          fullWidth
        />
        {lot.multi_copy && !standing ? (
          <TextField
            label={t('offering.bidding.form.quantity')}
            type="number"
            value={quantityText}
            onChange={(event) => {
              setQuantityText(event.target.value);
              edit('quantity');
            }}
            disabled={busy}
            error={quantityError !== undefined}
            helperText={
              quantityError ?? t('offering.bidding.form.quantityHelp', { max: lot.copies })
            }
            slotProps={{ htmlInput: { min: 1, max: lot.copies, step: 1, inputMode: 'numeric' } }}
            fullWidth
          />
        ) : null}
      </Box>
      {standing && mine && lot.multi_copy ? (
        <Typography variant="body2" color="text.secondary">
          {t('offering.bidding.form.quantityRebid', { count: mine.quantity })}
        </Typography>
      ) : null}
      {!lot.multi_copy ? (
        <Typography variant="body2" color="text.secondary">
          {t('offering.bidding.form.oneCopy')}
        </Typography>
      ) : null}
      {quantityError && (standing || !lot.multi_copy) ? (
        <Alert severity="error">{quantityError}</Alert>
      ) : null}
      {total ? (
        <Typography variant="body2">{t('offering.bidding.form.total', { total })}</Typography>
      ) : null}

      <FormControl
        error={cardError !== undefined}
        component="fieldset"
        sx={{ display: 'grid', gap: 1 }}
      >
        <FormLabel id={cardLabelId} component="legend">
          {t('offering.bidding.form.card')}
        </FormLabel>
        {cardPart}
        <FormHelperText sx={{ mx: 0 }}>
          {cardError ??
            ('payment_mode' in offering &&
            offering.payment_mode === 'deposit' &&
            offering.deposit !== null
              ? t('offering.bidding.form.cardNoteDeposit', { amount: price(offering.deposit) })
              : t('offering.bidding.form.cardNote'))}
        </FormHelperText>
      </FormControl>

      {addressPart}
      {orphanAddressError ? (
        <Alert severity="error" role="alert">
          {orphanAddressError}
        </Alert>
      ) : null}

      {problem ? (
        <Alert
          severity="error"
          role="alert"
          onClose={() => setProblem(null)}
          action={
            problem.code === 'market.bid.errors.no_card' ? (
              <Button
                color="inherit"
                size="small"
                component={RouterLink}
                to={PATHS.paymentMethods}
                startIcon={<AddCardRoundedIcon />}
              >
                {t('offering.bidding.form.addCard')}
              </Button>
            ) : undefined
          }
        >
          {problem.text}
        </Alert>
      ) : null}

      <Button
        type="submit"
        variant="contained"
        size="large"
        startIcon={<GavelRoundedIcon />}
        loading={busy}
        loadingPosition="start"
        disabled={blocked}
        sx={{ justifySelf: { xs: 'stretch', sm: 'start' } }}
      >
        {busy
          ? t('offering.bidding.form.sending')
          : standing
            ? t('offering.bidding.form.raise')
            : t('offering.bidding.form.submit')}
      </Button>
    </Paper>
  );
}

/**
 * Something a bid needs and the bidder has not saved (a card, a delivery address): what is missing
 * and a link to the page that adds it.
 */
function AddPrompt({
  text,
  action,
  to,
  icon,
}: {
  text: string;
  action: string;
  to: string;
  icon: ReactNode;
}) {
  return (
    <Alert
      severity="info"
      action={
        <Button color="inherit" size="small" component={RouterLink} to={to} startIcon={icon}>
          {action}
        </Button>
      }
    >
      {text}
    </Alert>
  );
}

/** What a placed bid came to: winning, leading below a reserve not met, or outbid at once. */
function PlacedAlert({
  outcome,
  onClose,
}: {
  outcome: ReturnType<typeof bidStatusKey>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const key = outcome === 'outbid' || outcome === 'leading' ? outcome : 'active';
  const severity = key === 'outbid' ? 'warning' : key === 'leading' ? 'info' : 'success';
  return (
    <Alert severity={severity} role="status" onClose={onClose}>
      {t(`offering.bidding.placed.${key}`)}
    </Alert>
  );
}
