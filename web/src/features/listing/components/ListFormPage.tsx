import { zodResolver } from '@hookform/resolvers/zod';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import SearchOffRoundedIcon from '@mui/icons-material/SearchOffRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@shared/dates';
import { CURRENCIES, FIAT_CURRENCIES } from '@shared/money';
import { isOnboarded } from '@shared/onboarding';
import { NOTES_MAX, TERMS_MAX, type ListingContext } from '@shared/schemas/offerings';
import { useCallback, useMemo, useState } from 'react';
import { Controller, get, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { Navigate, Link as RouterLink, useLocation, useParams } from 'react-router';
import { LeaveGuardDialog } from '../../../components/LeaveGuardDialog';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { addTranslations, useTranslation, type TextKey } from '../../../lib/i18n';
import { getListingContext, getMyOwnerCollections, offeringKeys } from '../../../lib/offerings';
import { useOwnProfile } from '../../../lib/ownProfile';
import listingTexts from '../../../locales/en.listing.json';
import {
  amountPreview,
  emptyListForm,
  listFormSchema,
  NEW_COLLECTION,
  symbolFromName,
  type ListFormOutput,
  type ListFormValues,
} from '../form';
import { useListingRun } from '../hooks/useListingRun';
import { CategoryField, CollectionImageField, InviteField, Section } from './ListFormFields';
import { ConfirmListingDialog, ListingProgressDialog } from './ListingProgressDialog';

addTranslations({ listing: listingTexts });

/** Where the listing guard sends a seller whose onboarding is not complete (spec 000 §6). */
export const MY_TOKENS = '/account/wallet/mytokens';
const MY_OFFERINGS = '/market/preview/myofferings';

/** The form's shape while its data loads. */
function ListFormSkeleton() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box role="status" aria-label={t('listing.loading')} sx={{ display: 'grid', gap: 3 }}>
        <Skeleton variant="text" width="40%" height={48} />
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
          <Skeleton variant="rounded" width={96} height={96} />
          <Box sx={{ flex: 1 }}>
            <Skeleton width="60%" />
            <Skeleton width="30%" />
          </Box>
        </Box>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} variant="rounded" height={160} />
        ))}
      </Box>
    </Container>
  );
}

/**
 * /my-tokens/list-form/:id (spec 000 §6): guests go to the login page (and come back); a seller
 * whose onboarding is not complete goes to my tokens, unless the identity check is manual.
 */
export function ListFormRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  const { status, user } = useAuth();
  const switches = useSwitches();
  const profile = useOwnProfile(user?.id ?? null);
  const context = useQuery({
    queryKey: ['listing', 'context', user?.id ?? '', id],
    queryFn: () => getListingContext(user?.id ?? '', id),
    enabled: user !== null && id !== '',
    staleTime: 0,
  });
  const manual = switches.identityProvider === 'manual';

  if (status === 'loading') return <ListFormSkeleton />;
  if (!user) {
    return <Navigate to="/session/login" replace state={{ returnTo: location.pathname }} />;
  }
  // The context is the server's answer; the own profile may tell earlier.
  const notOnboarded = context.data
    ? !context.data.onboarded
    : profile.data !== undefined && !isOnboarded(profile.data.onboarding_status);
  if (notOnboarded && !manual) return <Navigate to={MY_TOKENS} replace />;
  if (context.isPending) return <ListFormSkeleton />;
  if (context.isError) {
    return <ContextFailure error={context.error} onRetry={() => void context.refetch()} />;
  }
  return <ListFormPage key={id} userId={user.id} itemId={id} context={context.data} />;
}

function ContextFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const missing = error instanceof ApiError && [400, 403, 404].includes(error.status);
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 5 } }}>
      {missing ? (
        <StatusMessage
          role="alert"
          tone="error"
          icon={<SearchOffRoundedIcon />}
          title={t('listing.unavailable.title')}
          body={t('listing.unavailable.body')}
          action={
            <Button component={RouterLink} to={MY_TOKENS} variant="contained">
              {t('listing.unavailable.back')}
            </Button>
          }
        />
      ) : (
        <StatusMessage
          role="alert"
          tone="error"
          icon={<ErrorOutlineRoundedIcon />}
          title={t('listing.loadFailed.title')}
          body={errorText(error)}
          action={<RetryButton onClick={onRetry} />}
        />
      )}
    </Container>
  );
}

/** The item being listed: image, title, type and the copies free to list. */
function ItemHeader({ context }: { context: ListingContext }) {
  const { t } = useTranslation();
  const { item } = context;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('listing.item.label')}
      sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center', minWidth: 0 }}
    >
      <Box
        component="img"
        src={item.image.thumb}
        alt=""
        sx={{
          width: { xs: 72, sm: 96 },
          height: { xs: 72, sm: 96 },
          objectFit: 'cover',
          borderRadius: 2,
          flexShrink: 0,
          bgcolor: 'action.hover',
        }}
      />
      <Box sx={{ minWidth: 0, display: 'grid', gap: 0.5 }}>
        <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {item.title}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Chip size="small" label={t(`listing.types.${item.product_type}`)} />
          <Typography variant="body2" color="text.secondary">
            {t('listing.item.free', { count: context.free_copies })}
          </Typography>
        </Box>
      </Box>
    </Paper>
  );
}

/** The first message under a field (an array field's own or its first element's). */
function firstMessage(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const own = (node as { message?: unknown }).message;
  if (typeof own === 'string' && own !== '') return own;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'ref') continue;
    const found = firstMessage(child);
    if (found) return found;
  }
  return undefined;
}

export function ListFormPage({
  userId,
  itemId,
  context,
}: {
  userId: string;
  itemId: string;
  context: ListingContext;
}) {
  const { t } = useTranslation();
  usePageMeta({ title: t('meta.titleTemplate', { page: t('listing.title'), app: t('app.name') }) });
  const schema = useMemo(() => listFormSchema(itemId, context), [itemId, context]);
  const [defaults] = useState(() => emptyListForm(new Date()));
  const form = useForm<ListFormValues, unknown, ListFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
    mode: 'onTouched',
  });
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = form;
  const watched = useWatch({ control });
  const type = watched.type ?? 'fixed';
  const currency = watched.currency ?? 'USD';
  const auction = type === 'auction';
  const [submitProblem, setSubmitProblem] = useState<string | null>(null);
  const [symbolEdited, setSymbolEdited] = useState(false);

  const collections = useQuery({
    queryKey: offeringKeys.collections(userId),
    queryFn: () => getMyOwnerCollections(userId),
  });

  const onFieldErrors = useCallback(
    (fields: Record<string, string>, message: string | null) => {
      const entries = Object.entries(fields);
      entries.forEach(([path, code], index) =>
        setError(
          path as FieldPath<ListFormValues>,
          { type: 'server', message: code },
          {
            shouldFocus: index === 0,
          },
        ),
      );
      setSubmitProblem(message);
    },
    [setError],
  );
  const listing = useListingRun({ userId, onFieldErrors });
  const { run } = listing;

  const onValid = (output: ListFormOutput) => {
    setSubmitProblem(null);
    listing.start(output);
  };

  /** The text of a field's error; an amount or date typed but not understood is "not valid". */
  const message = (path: string): string | undefined => {
    const code = firstMessage(get(errors, path));
    if (!code) return undefined;
    const raw: unknown = get(watched, path);
    if (typeof raw === 'string') {
      if (code === 'forms.validation.required' && raw.trim() !== '') {
        return t('forms.validation.invalid');
      }
      if (code === 'forms.validation.invalid' && raw.trim() === '') {
        return t('forms.validation.required');
      }
    }
    return t(code as TextKey);
  };
  const field = (
    name: FieldPath<ListFormValues>,
    label: string,
    extra: object = {},
    asNumber = false,
  ) => {
    const { ref, ...rest } = asNumber ? register(name, { valueAsNumber: true }) : register(name);
    const error = message(name);
    return {
      ...rest,
      inputRef: ref,
      label,
      error: Boolean(error),
      helperText: error,
      fullWidth: true,
      ...extra,
    };
  };
  const symbol = CURRENCIES[currency].symbol;
  const money = {
    input: { startAdornment: <InputAdornment position="start">{symbol}</InputAdornment> },
    htmlInput: { inputMode: 'decimal' as const },
  };
  /** The field's error, else how the typed amount is read, else the field's help. */
  const amountHelp = (path: 'price' | 'deposit' | 'buy_price' | 'reserve_price', help: string) => {
    const preview = amountPreview(watched[path] ?? '', currency);
    return message(path) ?? (preview ? t('listing.form.amountPreview', { amount: preview }) : help);
  };
  const isTicket = context.item.product_type === 'ticket' && context.item.ticket_expires_at;
  const itemProblem = message('item_id');
  const running = listing.active;

  if (run.phase === 'done') {
    return (
      <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 }, display: 'grid', gap: 3 }}>
        <Typography variant="h4" component="h1">
          {t('listing.title')}
        </Typography>
        <ItemHeader context={context} />
        <Alert severity="success" role="status">
          <AlertTitle>{t('listing.done.title')}</AlertTitle>
          <Box sx={{ mb: 1 }}>{t('listing.done.body')}</Box>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <Link component={RouterLink} to={`/market/product/${encodeURIComponent(itemId)}`}>
              {t('listing.done.offering')}
            </Link>
            <Link component={RouterLink} to={MY_OFFERINGS}>
              {t('listing.done.myOfferings')}
            </Link>
          </Box>
        </Alert>
      </Container>
    );
  }

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        {t('listing.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, mb: 3 }}>
        <ItemHeader context={context} />
        {isTicket ? (
          <Alert severity="info">
            {t('listing.item.ticketGap', {
              date: formatDateTime(context.item.ticket_expires_at ?? '', {
                timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
              }),
            })}
          </Alert>
        ) : null}
        {context.qr_copies > 0 ? (
          <Alert severity="warning">{t('listing.item.qr', { count: context.qr_copies })}</Alert>
        ) : null}
        {itemProblem ? (
          <Alert severity="error" role="alert">
            {itemProblem}
          </Alert>
        ) : null}
        {run.phase === 'cancelled' ? (
          <Alert severity="info" role="status" onClose={listing.close}>
            {t('market.list.errors.cancelled')}
          </Alert>
        ) : null}
      </Box>
      <Box
        component="form"
        noValidate
        aria-label={t('listing.title')}
        onSubmit={(event) => void handleSubmit(onValid)(event)}
        sx={{ display: 'grid', gap: 3 }}
      >
        <Section title={t('listing.sections.sale')}>
          <Controller
            control={control}
            name="type"
            render={({ field: typeField }) => (
              <FormControl>
                <FormLabel id="listing-type-label">{t('listing.form.type.label')}</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby="listing-type-label"
                  value={typeField.value}
                  onChange={(event) => typeField.onChange(event.target.value)}
                >
                  <FormControlLabel
                    value="fixed"
                    control={<Radio />}
                    label={t('listing.form.type.fixed')}
                  />
                  <FormControlLabel
                    value="auction"
                    control={<Radio />}
                    label={t('listing.form.type.auction')}
                  />
                </RadioGroup>
              </FormControl>
            )}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              {...field(
                'copies',
                t('listing.form.copies'),
                { required: true, type: 'number' },
                true,
              )}
              slotProps={{
                htmlInput: { min: 1, max: Math.max(1, context.free_copies), step: 1 },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      {t('listing.form.copiesOf', { count: context.free_copies })}
                    </InputAdornment>
                  ),
                },
              }}
            />
            <TextField
              {...field('currency', t('listing.form.currency'), { select: true })}
              value={currency}
              slotProps={{ select: { native: true } }}
            >
              {FIAT_CURRENCIES.map((code) => (
                <option key={code} value={code}>
                  {`${code} (${CURRENCIES[code].symbol})`}
                </option>
              ))}
            </TextField>
            <TextField
              {...field(
                'price',
                auction ? t('listing.form.price.auction') : t('listing.form.price.fixed'),
                { required: true },
              )}
              helperText={amountHelp('price', t('listing.form.price.help', { currency }))}
              slotProps={money}
            />
          </Box>
          <Controller
            control={control}
            name="payment_mode"
            render={({ field: modeField }) => (
              <FormControl>
                <FormLabel id="listing-payment-label">{t('listing.form.payment.label')}</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby="listing-payment-label"
                  value={modeField.value}
                  onChange={(event) => modeField.onChange(event.target.value)}
                >
                  <FormControlLabel
                    value="fullprice"
                    control={<Radio />}
                    label={t('listing.form.payment.fullprice')}
                  />
                  <FormControlLabel
                    value="deposit"
                    control={<Radio />}
                    label={t('listing.form.payment.deposit')}
                  />
                </RadioGroup>
              </FormControl>
            )}
          />
          {watched.payment_mode === 'deposit' ? (
            <TextField
              {...field('deposit', t('listing.form.deposit'), { required: true })}
              helperText={amountHelp(
                'deposit',
                auction ? t('listing.form.depositHelpAuction') : t('listing.form.depositHelp'),
              )}
              slotProps={money}
            />
          ) : null}
          {auction ? (
            <Box sx={{ display: 'grid', gap: 1 }}>
              <FormControlLabel
                control={<Switch {...register('buy_now')} checked={watched.buy_now ?? false} />}
                label={t('listing.form.buyNow')}
              />
              {watched.buy_now ? (
                <TextField
                  {...field('buy_price', t('listing.form.buyPrice'), { required: true })}
                  helperText={amountHelp('buy_price', t('listing.form.buyPriceHelp'))}
                  slotProps={money}
                />
              ) : null}
              <FormControlLabel
                control={<Switch {...register('reserve')} checked={watched.reserve ?? false} />}
                label={t('listing.form.reserve')}
              />
              {watched.reserve ? (
                <TextField
                  {...field('reserve_price', t('listing.form.reservePrice'), { required: true })}
                  helperText={amountHelp('reserve_price', t('listing.form.reservePriceHelp'))}
                  slotProps={money}
                />
              ) : null}
              <FormControl error={Boolean(message('multi_copy'))}>
                <FormControlLabel
                  control={
                    <Switch {...register('multi_copy')} checked={watched.multi_copy ?? false} />
                  }
                  label={t('listing.form.multiCopy')}
                />
                <FormHelperText>
                  {message('multi_copy') ?? t('listing.form.multiCopyOff')}
                </FormHelperText>
              </FormControl>
            </Box>
          ) : null}
        </Section>

        <Section title={t('listing.sections.dates')}>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              {...field('start_at', t('listing.form.start'), {
                type: 'datetime-local',
                required: true,
              })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              {...field('end_at', t('listing.form.end'), {
                type: 'datetime-local',
                required: true,
              })}
              helperText={message('end_at') ?? t('listing.form.endHelp')}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Box>
        </Section>

        <Section title={t('listing.sections.details')}>
          <Controller
            control={control}
            name="categories"
            render={({ field: categoriesField }) => (
              <CategoryField
                value={categoriesField.value}
                onChange={(next) => {
                  categoriesField.onChange(next);
                  categoriesField.onBlur();
                }}
                error={message('categories')}
              />
            )}
          />
          <TextField
            {...field('notes', t('listing.form.notes'))}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: NOTES_MAX } }}
          />
          <FormControlLabel
            control={<Checkbox {...register('no_terms')} checked={watched.no_terms ?? false} />}
            label={t('listing.form.noTerms')}
          />
          {watched.no_terms ? null : (
            <TextField
              {...field('terms', t('listing.form.terms'), { required: true })}
              multiline
              minRows={3}
              slotProps={{ htmlInput: { maxLength: TERMS_MAX } }}
            />
          )}
        </Section>

        <Section title={t('listing.sections.access')}>
          <Controller
            control={control}
            name="access"
            render={({ field: accessField }) => (
              <FormControl>
                <FormLabel id="listing-access-label">{t('listing.form.access.label')}</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby="listing-access-label"
                  value={accessField.value}
                  onChange={(event) => accessField.onChange(event.target.value)}
                >
                  <FormControlLabel
                    value="public"
                    control={<Radio />}
                    label={t('listing.form.access.public')}
                  />
                  <FormControlLabel
                    value="private"
                    control={<Radio />}
                    label={t('listing.form.access.private')}
                  />
                </RadioGroup>
              </FormControl>
            )}
          />
          {watched.access === 'private' ? (
            <Controller
              control={control}
              name="invited"
              render={({ field: invitedField }) => (
                <InviteField
                  value={invitedField.value}
                  onChange={invitedField.onChange}
                  onBlur={invitedField.onBlur}
                  error={message('invited')}
                />
              )}
            />
          ) : null}
        </Section>

        <Section title={t('listing.sections.collection')}>
          <TextField
            {...field('collection_id', t('listing.form.collection.label'), { select: true })}
            value={watched.collection_id ?? ''}
            helperText={
              message('collection_id') ??
              (collections.isError ? t('listing.form.collection.loadFailed') : undefined)
            }
            // "None" is a value shown in the box: the label stays above it.
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="">{t('listing.form.collection.none')}</option>
            {(collections.data?.items ?? []).map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.title}
              </option>
            ))}
            <option value={NEW_COLLECTION}>{t('listing.form.collection.new')}</option>
          </TextField>
          {watched.collection_id === NEW_COLLECTION ? (
            <Box
              sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
            >
              <TextField
                {...field('new_collection.name', t('listing.form.collection.name'), {
                  required: true,
                })}
                onChange={(event) => {
                  const name = event.target.value;
                  setValue('new_collection.name', name, { shouldDirty: true });
                  if (!symbolEdited) setValue('new_collection.symbol', symbolFromName(name));
                }}
              />
              <TextField
                {...field('new_collection.symbol', t('listing.form.collection.symbol'), {
                  required: true,
                })}
                onChange={(event) => {
                  setSymbolEdited(true);
                  setValue('new_collection.symbol', event.target.value, { shouldDirty: true });
                }}
                value={watched.new_collection?.symbol ?? ''}
                helperText={
                  message('new_collection.symbol') ?? t('listing.form.collection.symbolHelp')
                }
              />
              <Box sx={{ gridColumn: { sm: '1 / -1' } }}>
                <CollectionImageField
                  file={watched.new_collection?.image ?? null}
                  onChange={(file) =>
                    setValue('new_collection.image', file, {
                      shouldValidate: true,
                      shouldDirty: true,
                    })
                  }
                  error={message('new_collection.image')}
                />
              </Box>
            </Box>
          ) : null}
        </Section>

        {submitProblem ? (
          <Alert severity="error" role="alert">
            {submitProblem}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={running}
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {t('listing.form.submit')}
          </Button>
        </Box>
      </Box>
      <ListingProgressDialog run={run} onRetry={listing.retry} onClose={listing.close} />
      <ConfirmListingDialog run={run} onConfirm={listing.confirm} onCancel={listing.cancel} />
      <LeaveGuardDialog active={running} />
    </Container>
  );
}
