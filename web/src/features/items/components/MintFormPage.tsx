import { zodResolver } from '@hookform/resolvers/zod';
import AttachFileRoundedIcon from '@mui/icons-material/AttachFileRounded';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ITEM_LIMITS } from '@shared/constants/limits';
import { COUNTRY_CODES } from '@shared/schemas/addresses';
import type { CreateItemContract } from '@shared/schemas/items';
import { PRODUCT_TYPES, type ProductType } from '@shared/switches';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { Controller, get, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Navigate, useNavigate } from 'react-router';
import { LeaveGuardDialog } from '../../../components/LeaveGuardDialog';
import { ApiError, newIdempotencyKey } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { useLiveMessages } from '../../../lib/liveChannel';
import { useOwnProfile } from '../../../lib/ownProfile';
import { toasts } from '../../../lib/toast';
import { createItem, fetchUserLimits, itemKeys, uploadItemFile } from '../api/items';
import { emptyMintForm, mintFormSchema, royaltyApplies, type MintFormValues } from '../form';
import { CollectionField } from './CollectionField';
import { CreationProgressDialog, type CreationState } from './CreationProgressDialog';
import { ImagePicker } from './ImagePicker';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

function Loading() {
  const { t } = useTranslation();
  return (
    <Box role="status" sx={{ flex: 1, display: 'grid', placeItems: 'center', py: 10 }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}

/**
 * /my-tokens/mint-form (spec 000 §6): guests, unverified users and, with companyOnlyMinting on,
 * individuals are sent home.
 */
export function MintFormRoute() {
  const { status, user } = useAuth();
  const switches = useSwitches();
  const profile = useOwnProfile(user?.id ?? null);
  if (status === 'loading') return <Loading />;
  if (!user) return <Navigate to="/" replace />;
  if (profile.isPending) return <Loading />;
  if (profile.data && !profile.data.is_verified) return <Navigate to="/" replace />;
  if (switches.companyOnlyMinting && profile.data?.user_option !== 'company') {
    return <Navigate to="/" replace />;
  }
  return <MintFormPage userId={user.id} email={profile.data?.email ?? user.email} />;
}

function useCountryOptions() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    } catch {
      names = null;
    }
    return [...COUNTRY_CODES]
      .map((code) => ({ code, name: names?.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [i18n.language]);
}

const MB = 1024 * 1024;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={title}
      sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2 }}
    >
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function MintFormPage({ userId, email }: { userId: string; email: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { mintableTypes } = useSwitches();
  const countries = useCountryOptions();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('items.form.title'), app: t('app.name') }),
  });

  const firstType = mintableTypes[0] ?? 'physical';
  const schema = useMemo(() => mintFormSchema(mintableTypes), [mintableTypes]);
  const form = useForm<MintFormValues, unknown, CreateItemContract>({
    resolver: zodResolver(schema),
    defaultValues: emptyMintForm(firstType, email),
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
  const type = watched.product_type ?? firstType;
  const transferable = watched.transferable ?? true;
  const noTerms = watched.no_terms ?? false;
  const beneficiaryOn = watched.beneficiary_on ?? false;
  const shippingMode = watched.shipping?.mode ?? 'delivery';

  const limits = useQuery({
    queryKey: itemKeys.limits(userId),
    queryFn: ({ signal }) => fetchUserLimits(userId, signal),
  });

  const [imagesBusy, setImagesBusy] = useState(false);
  const [creation, setCreation] = useState<CreationState>({ phase: 'idle' });
  const attempt = useRef<{ key: string; contract: CreateItemContract } | null>(null);
  const running = creation.phase === 'running';
  // The live channel's `item.creation` messages move the progress while token/create runs (the
  // channel stays open while the form is shown, so the first messages are not missed).
  useLiveMessages(
    useCallback((message) => {
      if (message.type !== 'item.creation') return;
      const { item_id, status, written, total, error } = message;
      if (status === 'done' || status === 'error') return;
      setCreation((current) =>
        current.phase === 'running'
          ? { phase: 'running', progress: { item_id, status, written, total, error } }
          : current,
      );
    }, []),
  );

  const mutation = useMutation({
    mutationFn: ({ key, contract }: { key: string; contract: CreateItemContract }) =>
      createItem(userId, contract, key),
    onMutate: () => setCreation({ phase: 'running', progress: null }),
    onSuccess: (progress) => {
      if (progress.status === 'done') {
        setCreation({ phase: 'done', progress });
        attempt.current = null;
        toasts.show({ severity: 'success', message: t('items.progress.success') });
        void navigate(`/market/product/${encodeURIComponent(progress.item_id)}`);
      } else {
        const code = progress.error ?? 'market.create_product.errors.mint.generic';
        setCreation({ phase: 'error', message: errorText(new ApiError({ code, status: 200 })) });
      }
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) {
        for (const [field, code] of Object.entries(error.fields)) {
          const path = field.replace(/^contract\./, '') as FieldPath<MintFormValues>;
          setError(path, { type: 'server', message: code });
        }
      }
      setCreation({ phase: 'error', message: errorText(error) });
    },
  });

  const onValid = (contract: CreateItemContract) => {
    attempt.current = { key: newIdempotencyKey(), contract };
    mutation.mutate(attempt.current);
  };
  const retry = () => {
    if (attempt.current) mutation.mutate(attempt.current);
  };

  const message = (path: string): string | undefined => {
    const code = (get(errors, path) as { message?: string } | undefined)?.message;
    return code ? t(code as 'forms.validation.required') : undefined;
  };
  const field = (
    name: FieldPath<MintFormValues>,
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
  const onImages = useCallback(
    (ids: string[]) =>
      setValue('images', ids, { shouldValidate: ids.length > 0, shouldDirty: true }),
    [setValue],
  );

  const title = watched.title ?? '';
  const description = watched.description ?? '';
  const showRoyalty = royaltyApplies(type, transferable);
  const reached = limits.data?.reached === true;

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
        {t('items.form.title')}
      </Typography>
      <Box
        component="form"
        noValidate
        aria-label={t('items.form.title')}
        onSubmit={(event) => void handleSubmit(onValid)(event)}
        sx={{ display: 'grid', gap: 3 }}
      >
        <Section title={t('items.form.sections.basics')}>
          <Controller
            control={control}
            name="product_type"
            render={({ field: typeField }) => (
              <FormControl error={Boolean(message('product_type'))}>
                <FormLabel id="type-label">{t('items.form.type.label')}</FormLabel>
                <RadioGroup
                  aria-labelledby="type-label"
                  row
                  value={typeField.value}
                  onChange={(event) => typeField.onChange(event.target.value as ProductType)}
                >
                  {PRODUCT_TYPES.map((option) => {
                    const enabled = mintableTypes.includes(option);
                    return (
                      <FormControlLabel
                        key={option}
                        value={option}
                        disabled={!enabled}
                        control={<Radio />}
                        label={
                          <span>
                            {t(`items.types.${option}`)}
                            {enabled ? null : (
                              <Typography
                                component="span"
                                variant="caption"
                                sx={{ display: 'block' }}
                              >
                                {t('items.form.type.unavailable')}
                              </Typography>
                            )}
                          </span>
                        }
                      />
                    );
                  })}
                </RadioGroup>
                <FormHelperText>{message('product_type')}</FormHelperText>
              </FormControl>
            )}
          />
          <TextField
            {...field('title', t('items.form.name'), { required: true })}
            slotProps={{ htmlInput: { maxLength: ITEM_LIMITS.titleMax } }}
            helperText={
              message('title') ??
              t('items.form.counter', { count: title.length, max: ITEM_LIMITS.titleMax })
            }
          />
          <TextField
            {...field('description', t('items.form.description'), { required: true })}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: ITEM_LIMITS.descriptionMax } }}
            helperText={
              message('description') ??
              t('items.form.counter', {
                count: description.length,
                max: ITEM_LIMITS.descriptionMax,
              })
            }
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField
              {...field('copies', t('items.form.copies'), { required: true, type: 'number' }, true)}
              slotProps={{ htmlInput: { min: 1, max: ITEM_LIMITS.maxCopies, step: 1 } }}
              helperText={
                message('copies') ?? t('items.form.copiesHelp', { max: ITEM_LIMITS.maxCopies })
              }
            />
            <TextField
              {...field('symbol', t('items.form.symbol'), { required: true })}
              slotProps={{ htmlInput: { maxLength: ITEM_LIMITS.objectNameMax } }}
              helperText={message('symbol') ?? t('items.form.symbolHelp')}
            />
          </Box>
          <CollectionField
            userId={userId}
            value={watched.collection_id ?? ''}
            onChange={(id) => setValue('collection_id', id, { shouldDirty: true })}
          />
        </Section>

        <Section title={t('items.form.sections.media')}>
          <ImagePicker
            userId={userId}
            label={t('items.form.images.label')}
            onChange={onImages}
            onBusyChange={setImagesBusy}
            error={message('images')}
          />
          <AttachedFileField
            userId={userId}
            error={message('file')}
            onChange={(upload) =>
              setValue('file', upload ? { upload } : null, { shouldValidate: true })
            }
          />
        </Section>

        {type === 'physical' ? (
          <Section title={t('items.form.sections.shipping')}>
            <Controller
              control={control}
              name="shipping.mode"
              render={({ field: modeField }) => (
                <FormControl>
                  <FormLabel id="shipping-mode">{t('items.form.shipping.mode')}</FormLabel>
                  <RadioGroup
                    row
                    aria-labelledby="shipping-mode"
                    value={modeField.value}
                    onChange={(event) => modeField.onChange(event.target.value)}
                  >
                    <FormControlLabel
                      value="delivery"
                      control={<Radio />}
                      label={t('items.form.shipping.delivery')}
                    />
                    <FormControlLabel
                      value="pickup"
                      control={<Radio />}
                      label={t('items.form.shipping.pickup')}
                    />
                  </RadioGroup>
                </FormControl>
              )}
            />
            {message('shipping') ? (
              <FormHelperText error>{message('shipping')}</FormHelperText>
            ) : null}
            {shippingMode === 'delivery' ? (
              <Controller
                control={control}
                name="shipping.countries"
                render={({ field: countriesField }) => (
                  <Autocomplete
                    multiple
                    options={countries}
                    getOptionLabel={(option) => `${option.name} (${option.code})`}
                    value={countries.filter((option) => countriesField.value.includes(option.code))}
                    onChange={(_event, chosen) =>
                      countriesField.onChange(chosen.map((c) => c.code))
                    }
                    onBlur={countriesField.onBlur}
                    renderInput={(params) => (
                      <TextField
                        {...params}
                        label={t('items.form.shipping.countries')}
                        error={Boolean(message('shipping.countries'))}
                        helperText={message('shipping.countries')}
                      />
                    )}
                  />
                )}
              />
            ) : (
              <Box
                sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
              >
                <CountrySelect
                  field={field('shipping.address.country', t('items.form.shipping.country'))}
                  value={watched.shipping?.address?.country ?? ''}
                  countries={countries}
                />
                <TextField {...field('shipping.address.line1', t('items.form.shipping.line1'))} />
                <TextField {...field('shipping.address.city', t('items.form.shipping.city'))} />
                <TextField
                  {...field('shipping.address.postalcode', t('items.form.shipping.postalcode'))}
                />
                <TextField
                  {...field('shipping.instructions', t('items.form.shipping.instructions'))}
                  multiline
                  minRows={2}
                  sx={{ gridColumn: { sm: '1 / -1' } }}
                />
              </Box>
            )}
          </Section>
        ) : null}

        {type === 'ticket' ? (
          <Section title={t('items.form.sections.ticket')}>
            <TextField {...field('ticket.redeemer', t('items.form.ticket.redeemer'))} />
            <TextField
              {...field('ticket.expires_at', t('items.form.ticket.expires'), {
                type: 'datetime-local',
              })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Section>
        ) : null}

        <Section title={t('items.form.sections.terms')}>
          <FormControlLabel
            control={<Switch {...register('no_terms')} checked={noTerms} />}
            label={t('items.form.terms.none')}
          />
          {noTerms ? null : (
            <TextField
              {...field('legal_terms', t('items.form.terms.label'))}
              multiline
              minRows={3}
            />
          )}
          <FormControlLabel
            control={<Switch {...register('transferable')} checked={transferable} />}
            label={t('items.form.transferable')}
          />
          {showRoyalty ? (
            <TextField
              {...field('royalty', t('items.form.royalty'), { type: 'number' })}
              slotProps={{ htmlInput: { min: 10, max: 50 } }}
              helperText={message('royalty') ?? t('items.form.royaltyHelp')}
            />
          ) : null}
          <FormControlLabel
            control={<Switch {...register('beneficiary_on')} checked={beneficiaryOn} />}
            label={t('items.form.beneficiary.toggle')}
          />
          {beneficiaryOn ? (
            <Box
              sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '2fr 1fr' } }}
            >
              <TextField {...field('beneficiary.nick', t('items.form.beneficiary.nick'))} />
              <TextField
                {...field('beneficiary.share', t('items.form.beneficiary.share'), {
                  type: 'number',
                })}
                slotProps={{ htmlInput: { min: 10, max: 50 } }}
              />
            </Box>
          ) : null}
        </Section>

        <Section title={t('items.form.sections.issuer')}>
          <TextField
            {...field('contact_email', t('items.form.contactEmail'), {
              type: 'email',
              required: true,
            })}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField {...field('issuer.organisation', t('items.form.issuer.organisation'))} />
            <TextField {...field('issuer.legal_form', t('items.form.issuer.legalForm'))} />
            <CountrySelect
              field={field('issuer.country', t('items.form.issuer.country'))}
              value={watched.issuer?.country ?? ''}
              countries={countries}
            />
            <TextField
              {...field('issuer.email', t('items.form.issuer.email'), { type: 'email' })}
            />
            <TextField {...field('issuer.governing_law', t('items.form.issuer.governingLaw'))} />
            <TextField {...field('issuer.jurisdiction', t('items.form.issuer.jurisdiction'))} />
          </Box>
        </Section>

        {reached && limits.data ? (
          <Alert severity="warning" role="region" aria-label={t('items.limits.title')}>
            <AlertTitle>{t('items.limits.title')}</AlertTitle>
            <Box>{t('items.limits.body')}</Box>
            <Box>
              {t('items.limits.mints', {
                used: limits.data.mints.used,
                limit: limits.data.mints.limit,
              })}
            </Box>
            <Box>
              {t('items.limits.storage', {
                used: ((limits.data.overlay + limits.data.firestore) / MB).toFixed(1),
                limit: (limits.data.limitCapacity / MB).toFixed(1),
              })}
            </Box>
          </Alert>
        ) : (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, alignItems: 'center' }}>
            {imagesBusy ? (
              <Typography variant="body2" color="text.secondary">
                {t('items.form.waitUploads')}
              </Typography>
            ) : null}
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={imagesBusy || running || limits.isPending}
            >
              {t('items.form.submit')}
            </Button>
          </Box>
        )}
      </Box>
      <CreationProgressDialog
        state={creation}
        onRetry={retry}
        onClose={() => setCreation({ phase: 'idle' })}
      />
      <LeaveGuardDialog active={running} />
    </Container>
  );
}

function CountrySelect({
  field,
  value,
  countries,
}: {
  field: Record<string, unknown> & { label: string };
  value: string;
  countries: { code: string; name: string }[];
}) {
  return (
    <TextField {...field} select value={value} slotProps={{ select: { native: true } }}>
      <option value="" />
      {countries.map((country) => (
        <option key={country.code} value={country.code}>
          {country.name}
        </option>
      ))}
    </TextField>
  );
}

/** The attached file: one at a time, at most 20 MB, uploaded to the private bucket. */
function AttachedFileField({
  userId,
  error,
  onChange,
}: {
  userId: string;
  error: string | undefined;
  onChange: (upload: string | null) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<
    | { status: 'none' }
    | { status: 'uploading' | 'done'; name: string }
    | { status: 'error'; message: string }
  >({ status: 'none' });
  const [problem, setProblem] = useState<string | null>(null);

  const pick = (files: File[]) => {
    setProblem(null);
    if (files.length === 0) return;
    const [file] = files;
    if (files.length > 1 || state.status === 'uploading' || !file) {
      setProblem(t('market.create_product.errors.one_file'));
      return;
    }
    if (file.size > ITEM_LIMITS.attachedFileMaxBytes) {
      setProblem(t('items.form.file.size'));
      return;
    }
    setState({ status: 'uploading', name: file.name });
    onChange(null);
    uploadItemFile(userId, file, 'file')
      .then((uploaded) => {
        setState({ status: 'done', name: file.name });
        onChange(uploaded.upload_id);
      })
      .catch((failure: unknown) => setState({ status: 'error', message: errorText(failure) }));
  };
  const shown = problem ?? (state.status === 'error' ? state.message : error);
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        {t('items.form.file.label')}
      </Typography>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        aria-label={t('items.form.file.pick')}
        onChange={(event) => {
          pick(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      {state.status === 'uploading' || state.status === 'done' ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <AttachFileRoundedIcon aria-hidden />
          <Typography sx={{ overflowWrap: 'anywhere' }}>{state.name}</Typography>
          {state.status === 'done' ? (
            <Button
              size="small"
              onClick={() => {
                setState({ status: 'none' });
                onChange(null);
              }}
            >
              {t('items.form.file.remove')}
            </Button>
          ) : null}
        </Box>
      ) : null}
      {state.status === 'uploading' ? (
        <LinearProgress aria-label={t('items.form.file.uploading', { name: state.name })} />
      ) : null}
      <Button
        variant="outlined"
        startIcon={<AttachFileRoundedIcon />}
        onClick={() => input.current?.click()}
        sx={{ mt: 1 }}
      >
        {t('items.form.file.add')}
      </Button>
      <FormHelperText>{t('items.form.file.help')}</FormHelperText>
      {shown ? (
        <FormHelperText error role="alert">
          {shown}
        </FormHelperText>
      ) : null}
    </Box>
  );
}
