import { zodResolver } from '@hookform/resolvers/zod';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ADDRESS_LIMITS, type Address } from '@shared/schemas/addresses';
import type { ItemDetail } from '@shared/schemas/items';
import type { OfferingDetail } from '@shared/schemas/offerings';
import {
  MAX_ORDER_COPIES,
  postalAddressSchema,
  type Order,
  type PostalAddress,
  type PreorderBody,
} from '@shared/schemas/orders';
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type * as z from 'zod';
import {
  addressLine,
  deliversTo,
  postalOf,
  SavedAddressChoice,
} from '../../../components/SavedAddressChoice';
import { LoadingBlock, RetryAlert } from '../../../components/LoadingBlock';
import { ApiError } from '../../../lib/api';
import { countryName, countryOptions } from '../../../lib/countries';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { bookCopies, newIdempotencyKey, orderKeys } from '../../../lib/orders';
import checkoutTexts from '../../../locales/en.checkout.json';
import { isRetriable, useItemShipping, useSavedAddresses } from '../hooks/useCheckout';

addTranslations({ checkout: checkoutTexts });

type AddressForm = z.input<typeof postalAddressSchema>;
type AddressField = keyof AddressForm;

const NEW = 'new';

const EMPTY_ADDRESS: AddressForm = {
  country: '',
  fullname: '',
  line1: '',
  line2: '',
  postalcode: '',
  city: '',
  stateprovince: '',
  instructions: '',
};

const ADDRESS_FIELDS: readonly AddressField[] = [
  'country',
  'fullname',
  'line1',
  'line2',
  'postalcode',
  'city',
  'stateprovince',
  'instructions',
];

/** How the item reaches the buyer, from its shipping: delivered, picked up, or nothing to send. */
type Shipping =
  | { mode: 'none' }
  | { mode: 'delivery'; countries: string[] }
  | {
      mode: 'pickup';
      address: { country: string; line1: string; city: string; postalcode: string };
      instructions: string;
    };

function shippingOf(offering: OfferingDetail, item: ItemDetail | undefined): Shipping | null {
  if (offering.item.product_type !== 'physical') return { mode: 'none' };
  if (!item) return null;
  return item.shipping ?? { mode: 'none' };
}

/**
 * Step 1, copies and shipping (spec 000 §2): how many copies (1 up to the copies left, at most
 * 40; the last copy alone needs no choice), and for a delivered item the address (a
 * saved one, the default first, or one typed here). "Book copies" keeps them for 5 minutes.
 */
export function CopiesStep({
  offering,
  userId,
  onBooked,
}: {
  offering: OfferingDetail;
  userId: string;
  onBooked: (order: Order) => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const physical = offering.item.product_type === 'physical';
  const item = useItemShipping(offering.item.id, userId, physical);
  const shipping = shippingOf(offering, item.data);
  const delivery = shipping?.mode === 'delivery';
  const countries = useMemo(
    () => (shipping?.mode === 'delivery' ? shipping.countries : []),
    [shipping],
  );
  const addresses = useSavedAddresses(userId, delivery);
  // A fixed price sells any number of the copies left (multi-copy is an auction's bid rule).
  const maxCopies = Math.max(1, Math.min(offering.copies_left, MAX_ORDER_COPIES));
  const [quantityText, setQuantityText] = useState('1');
  const [choice, setChoice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const quantityId = useId();

  const deliverable = (address: Address) => deliversTo(countries, address);
  const saved = addresses.data ?? [];
  const preselected =
    saved.find((address) => address.default && deliverable(address)) ?? saved.find(deliverable);
  const selected = choice ?? preselected?.id ?? NEW;

  const form = useForm<AddressForm, unknown, PostalAddress>({
    resolver: zodResolver(postalAddressSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_ADDRESS,
  });
  const { register, handleSubmit, setError, formState } = form;

  // One Idempotency-Key per attempt: sending the same booking again after no answer (or a
  // server failure) reuses it, so the server books once.
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const booking = useMutation({
    mutationFn: (order: PreorderBody['order']) => {
      const body = JSON.stringify(order);
      if (attempt.current?.body !== body) attempt.current = { body, key: newIdempotencyKey() };
      return bookCopies(userId, order, attempt.current.key);
    },
    onSuccess: (order) => {
      attempt.current = null;
      queryClient.setQueryData(orderKeys.detail(order.id), order);
      onBooked(order);
    },
    onError: (error) => {
      if (!isRetriable(error)) attempt.current = null;
      // Field errors of the typed address ({'order.postaladdress.city': code}) go to its fields.
      let mapped = false;
      if (error instanceof ApiError && error.fields && selected === NEW) {
        for (const [path, code] of Object.entries(error.fields)) {
          const name = path.replace(/^order\.postaladdress\./, '') as AddressField;
          if (ADDRESS_FIELDS.includes(name)) {
            setError(name, { type: 'server', message: code }, { shouldFocus: !mapped });
            mapped = true;
          }
        }
      }
      if (!mapped) setProblem(errorText(error));
    },
  });
  const busy = booking.isPending || booking.isSuccess;

  const quantity = Number(quantityText);
  const quantityValid = Number.isInteger(quantity) && quantity >= 1 && quantity <= maxCopies;

  const book = (postaladdress: PostalAddress | null) =>
    booking.mutate({ offeringid: offering.id, quantity, postaladdress });

  const submit = () => {
    setProblem(null);
    if (!quantityValid) return;
    if (!delivery) {
      book(null);
      return;
    }
    const chosen = saved.find((address) => address.id === selected);
    if (chosen) book(postalOf(chosen));
    else void handleSubmit(book)();
  };

  const text = (code: string | undefined) =>
    code
      ? i18n.exists(code)
        ? t(code as 'unexpected')
        : errorText(new ApiError({ code, status: 400 }))
      : undefined;
  const field = (
    name: Exclude<AddressField, 'country'>,
    label: string,
    options: { required?: boolean; max: number; autoComplete?: string; multiline?: boolean },
  ) => {
    const message = text(formState.errors[name]?.message);
    return (
      <TextField
        {...register(name)}
        label={label}
        required={options.required}
        error={message !== undefined}
        helperText={message ?? ' '}
        autoComplete={options.autoComplete}
        multiline={options.multiline}
        minRows={options.multiline ? 2 : undefined}
        disabled={busy}
        fullWidth
        slotProps={{ htmlInput: { maxLength: options.max } }}
      />
    );
  };
  const countryChoices = useMemo(
    () => countryOptions(countries, i18n.language),
    [countries, i18n.language],
  );
  const countryError = text(formState.errors.country?.message);

  let shippingPart: ReactNode = null;
  if (physical && item.isPending) {
    shippingPart = (
      <Box role="status" aria-label={t('checkout.shipping.loading')}>
        <Skeleton width="40%" />
        <Skeleton variant="rounded" height={96} />
      </Box>
    );
  } else if (physical && item.isError) {
    shippingPart = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void item.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('checkout.shipping.loadFailed')} {errorText(item.error)}
      </Alert>
    );
  } else if (shipping?.mode === 'pickup') {
    shippingPart = (
      <Section title={t('checkout.shipping.pickupTitle')}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <PlaceOutlinedIcon color="action" aria-hidden />
          <Box>
            <Typography variant="body2" color="text.secondary">
              {t('checkout.shipping.pickupBody')}
            </Typography>
            <Typography>{addressLine(shipping.address, i18n.language)}</Typography>
            <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-line' }}>
              {t('checkout.shipping.instructions', { instructions: shipping.instructions })}
            </Typography>
          </Box>
        </Box>
      </Section>
    );
  } else if (shipping?.mode === 'none') {
    shippingPart = (
      <Typography variant="body2" color="text.secondary">
        {t('checkout.shipping.noShipping')}
      </Typography>
    );
  } else if (delivery) {
    shippingPart = (
      <Section title={t('checkout.shipping.title')}>
        {countries.length > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('checkout.shipping.deliversTo', {
              countries: countries.map((code) => countryName(code, i18n.language)).join(', '),
            })}
          </Typography>
        ) : null}
        {addresses.isPending ? (
          <LoadingBlock label={t('common.loading')} height={72} />
        ) : addresses.isError ? (
          <RetryAlert onRetry={() => void addresses.refetch()}>
            {t('checkout.shipping.addressesFailed')}
          </RetryAlert>
        ) : saved.length === 0 ? (
          <Typography variant="body2">{t('checkout.shipping.noneSaved')}</Typography>
        ) : (
          <SavedAddressChoice
            label={t('checkout.shipping.choose')}
            addresses={saved}
            countries={countries}
            value={selected}
            onChange={setChoice}
            disabled={busy}
          >
            <FormControlLabel
              value={NEW}
              disabled={busy}
              control={<Radio />}
              label={t('checkout.shipping.new')}
            />
          </SavedAddressChoice>
        )}
        {selected === NEW && !addresses.isPending ? (
          <Box
            role="group"
            aria-label={t('checkout.shipping.new')}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
              columnGap: 2,
              rowGap: 0.5,
              mt: 1,
              '& > .wide': { gridColumn: '1 / -1' },
            }}
          >
            <Box className="wide">
              <TextField
                {...register('country')}
                select
                label={t('checkout.address.country')}
                required
                error={countryError !== undefined}
                helperText={countryError ?? ' '}
                disabled={busy}
                fullWidth
                autoComplete="country"
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              >
                <option value="">{t('checkout.address.chooseCountry')}</option>
                {countryChoices.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </TextField>
            </Box>
            <Box className="wide">
              {field('fullname', t('checkout.address.fullname'), {
                required: true,
                max: ADDRESS_LIMITS.fullnameMax,
                autoComplete: 'name',
              })}
            </Box>
            <Box className="wide">
              {field('line1', t('checkout.address.line1'), {
                required: true,
                max: ADDRESS_LIMITS.lineMax,
                autoComplete: 'address-line1',
              })}
            </Box>
            <Box className="wide">
              {field('line2', t('checkout.address.line2'), {
                max: ADDRESS_LIMITS.lineMax,
                autoComplete: 'address-line2',
              })}
            </Box>
            {field('postalcode', t('checkout.address.postalcode'), {
              required: true,
              max: ADDRESS_LIMITS.postalcodeMax,
              autoComplete: 'postal-code',
            })}
            {field('city', t('checkout.address.city'), {
              required: true,
              max: ADDRESS_LIMITS.cityMax,
              autoComplete: 'address-level2',
            })}
            <Box className="wide">
              {field('stateprovince', t('checkout.address.stateprovince'), {
                required: true,
                max: ADDRESS_LIMITS.stateprovinceMax,
                autoComplete: 'address-level1',
              })}
            </Box>
            <Box className="wide">
              {field('instructions', t('checkout.address.instructions'), {
                max: ADDRESS_LIMITS.instructionsMax,
                multiline: true,
              })}
            </Box>
          </Box>
        ) : null}
      </Section>
    );
  }

  const ready = !(physical && (item.isPending || item.isError));
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Section title={t('checkout.copies.title')}>
        {maxCopies > 1 ? (
          <TextField
            id={quantityId}
            label={t('checkout.copies.label')}
            type="number"
            value={quantityText}
            onChange={(event) => setQuantityText(event.target.value)}
            disabled={busy}
            error={!quantityValid}
            helperText={
              quantityValid
                ? t('checkout.copies.help', { max: maxCopies })
                : t('market.buy.errors.quantity')
            }
            slotProps={{ htmlInput: { min: 1, max: maxCopies, step: 1, inputMode: 'numeric' } }}
            sx={{ maxWidth: 240 }}
          />
        ) : (
          <Typography>{t('checkout.copies.one')}</Typography>
        )}
      </Section>
      {shippingPart}
      {problem ? (
        <Alert severity="error" role="alert">
          {problem}
        </Alert>
      ) : null}
      <Box
        sx={{
          display: 'flex',
          gap: 2,
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="body2" color="text.secondary">
          {t('checkout.bookNote')}
        </Typography>
        <Button
          variant="contained"
          size="large"
          onClick={submit}
          loading={busy}
          loadingPosition="start"
          disabled={!ready || !quantityValid}
          sx={{ width: { xs: '100%', sm: 'auto' } }}
        >
          {busy ? t('checkout.booking') : t('checkout.book')}
        </Button>
      </Box>
    </Box>
  );
}

/** A titled part of a step. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 1.5 }}
    >
      <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}
