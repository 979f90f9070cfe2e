import BusinessRoundedIcon from '@mui/icons-material/BusinessRounded';
import CheckCircleRoundedIcon from '@mui/icons-material/CheckCircleRounded';
import ErrorOutlineRoundedIcon from '@mui/icons-material/ErrorOutlineRounded';
import PersonRoundedIcon from '@mui/icons-material/PersonRounded';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { register as registerUser, type AvailabilityKind } from '../api/accounts';
import { useAvailability, type Availability } from '../hooks/useAvailability';
import { useLoginFlow } from '../hooks/useLoginFlow';
import {
  emailSchema,
  nickSchema,
  phoneSchema,
  registerBody,
  signupFormSchemaFor,
  type SignupFormInput,
  type SignupFormValues,
} from '../schemas';
import { LoggingInStep, PinStep, SIGNUP_PATH, useLoginErrorText } from './LoginSteps';
import { SessionPage } from './SessionPage';
import signupTexts from '../../../locales/en.signup.json';

addTranslations({ signup: signupTexts });

const FIELD_OF: Record<string, keyof SignupFormInput> = {
  nick: 'nick',
  email: 'email',
  phone: 'phone',
  mobile: 'phone',
  name: 'name',
  surname: 'surname',
  entity_name: 'entity_name',
  terms: 'terms',
  user_option: 'user_option',
  password: 'password',
};

function AvailabilityText({ state }: { state: Availability }) {
  const { t } = useTranslation();
  if (state === 'idle') return null;
  const icon: Record<Exclude<Availability, 'idle'>, ReactNode> = {
    checking: <CircularProgress size={12} color="inherit" aria-hidden />,
    available: <CheckCircleRoundedIcon sx={{ fontSize: 15 }} aria-hidden />,
    taken: <ErrorOutlineRoundedIcon sx={{ fontSize: 15 }} aria-hidden />,
    error: <ErrorOutlineRoundedIcon sx={{ fontSize: 15 }} aria-hidden />,
  };
  const color = {
    checking: 'text.secondary',
    available: 'success.main',
    taken: 'error.main',
    error: 'text.secondary',
  }[state];
  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color, fontWeight: 500 }}
    >
      {icon[state]}
      {t(`signup.availability.${state}`)}
    </Box>
  );
}

/** /session/signup: account details, then the e-mail code and the phone code, then logged in. */
export function SignupPage() {
  const { t, i18n } = useTranslation();
  const { available: authAvailable } = useAuth();
  const errorText = useErrorText();
  const loginErrorText = useLoginErrorText();
  const formId = useId();
  const [nick, setNick] = useState<string>();
  const flow = useLoginFlow({ returnTo: SIGNUP_PATH, nick });

  usePageMeta({
    title: t('meta.titleTemplate', { page: t('meta.signup.title'), app: t('app.name') }),
    description: t('meta.signup.description', { app: t('app.name') }),
  });

  const switches = useSwitches();
  const passwordLogin = switches.passwordLogin;
  // The switch arrives with /api/config; react-hook-form takes the current resolver each render.
  const resolver = useMemo(() => zodResolver(signupFormSchemaFor(passwordLogin)), [passwordLogin]);
  const form = useForm<SignupFormInput, unknown, SignupFormValues>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      user_option: 'individual',
      nick: '',
      email: '',
      phone: '',
      name: '',
      surname: '',
      entity_name: '',
      terms: false,
      password: '',
      password_repeat: '',
    },
  });
  const { control, register, handleSubmit, setError, formState } = form;
  const [userOption, nickValue, emailValue, phoneValue] = useWatch({
    control,
    name: ['user_option', 'nick', 'email', 'phone'],
  });

  const nickCheck = useAvailability('nick', nickValue, nickSchema.safeParse(nickValue).success);
  const emailParsed = emailSchema.safeParse(emailValue);
  const emailCheck = useAvailability(
    'email',
    emailParsed.success ? emailParsed.data : '',
    emailParsed.success,
  );
  const phoneParsed = phoneSchema.safeParse(phoneValue);
  const phoneCheck = useAvailability(
    'phone',
    phoneParsed.success ? phoneParsed.data : '',
    phoneParsed.success,
  );
  const checks: Record<AvailabilityKind, Availability> = {
    nick: nickCheck,
    email: emailCheck,
    phone: phoneCheck,
  };

  const signup = useMutation({
    mutationFn: registerUser,
    onError: (error) => {
      if (!(error instanceof ApiError) || !error.fields) return;
      for (const [key, code] of Object.entries(error.fields)) {
        const field = FIELD_OF[key.replace(/^user\./, '')];
        if (field) setError(field, { type: 'server', message: code }, { shouldFocus: true });
      }
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    const taken = (Object.keys(checks) as AvailabilityKind[]).filter(
      (kind) => checks[kind] === 'taken',
    );
    if (taken.length > 0) {
      for (const kind of taken) {
        setError(
          kind,
          { type: 'taken', message: `forms.validation.taken.${kind}` },
          { shouldFocus: true },
        );
      }
      return;
    }
    try {
      // Registered already (the login start failed): only ask for the codes again.
      const password = passwordLogin ? values.password : undefined;
      if (nick) {
        await flow.start(values.email, password);
        return;
      }
      const created = await signup.mutateAsync(registerBody(values, passwordLogin));
      setNick(created.nick);
      await flow.start(values.email, password);
    } catch {
      // Shown under the fields or above the button.
    }
  });

  const fieldError = (name: keyof SignupFormInput): string | undefined => {
    const message = formState.errors[name]?.message;
    if (!message) return undefined;
    // The nick's length and character rules read better as one sentence.
    if (name === 'nick' && /^forms\.validation\.(too_small|too_big|invalid)$/.test(message)) {
      return t('forms.validation.nick');
    }
    if (!i18n.exists(message) && /taken|exists|in_use|conflict/.test(message)) {
      return t('signup.taken');
    }
    return errorText(new ApiError({ code: message, status: 400 }));
  };

  const helper = (name: 'nick' | 'email' | 'phone', hint?: string): ReactNode => {
    const error = fieldError(name);
    if (error) return error;
    if (checks[name] !== 'idle') return <AvailabilityText state={checks[name]} />;
    return hint ?? ' ';
  };

  const registerError =
    signup.error && !(signup.error instanceof ApiError && signup.error.fields)
      ? errorText(signup.error)
      : null;
  const busy = formState.isSubmitting || signup.isPending || flow.state.busy;
  const activeStep = flow.state.step === 0 ? 0 : flow.state.step;
  const steps = [t('signup.steps.details'), t('signup.steps.email'), t('signup.steps.phone')];

  return (
    <SessionPage>
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: 560, p: { xs: 2.5, sm: 5 }, borderRadius: 4 }}
      >
        <Stepper
          activeStep={Math.min(activeStep, 3)}
          alternativeLabel
          sx={{ mb: { xs: 3, sm: 4 }, '& .MuiStepLabel-label': { fontSize: 13 } }}
        >
          {steps.map((label) => (
            <Step key={label}>
              <StepLabel>{label}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {flow.state.step === 3 ? (
          <LoggingInStep flow={flow} />
        ) : flow.state.step !== 0 ? (
          <PinStep flow={flow} showStepCount={false} />
        ) : (
          <Box component="form" id={formId} noValidate onSubmit={onSubmit}>
            <Stack spacing={2.25}>
              <Stack spacing={1} sx={{ textAlign: 'center', mb: 0.5 }}>
                <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, sm: 30 } }}>
                  {t('signup.title')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {t('signup.subtitle')}
                </Typography>
              </Stack>

              <Controller
                control={control}
                name="user_option"
                render={({ field }) => (
                  <ToggleButtonGroup
                    exclusive
                    fullWidth
                    color="primary"
                    value={field.value}
                    onChange={(_event, value: 'individual' | 'company' | null) => {
                      if (value) field.onChange(value);
                    }}
                    aria-label={t('signup.accountType')}
                    disabled={busy}
                    sx={{
                      gap: 1.5,
                      '& .MuiToggleButtonGroup-grouped': {
                        borderRadius: '12px !important',
                        border: '1px solid',
                        borderColor: 'divider',
                      },
                    }}
                  >
                    {(['individual', 'company'] as const).map((option) => (
                      <ToggleButton
                        key={option}
                        value={option}
                        sx={{
                          flexDirection: 'column',
                          alignItems: 'flex-start',
                          textAlign: 'left',
                          gap: 0.25,
                          py: 1.5,
                          px: 2,
                          '&.Mui-selected': { borderColor: 'primary.main' },
                        }}
                      >
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          {option === 'individual' ? (
                            <PersonRoundedIcon fontSize="small" />
                          ) : (
                            <BusinessRoundedIcon fontSize="small" />
                          )}
                          <Typography component="span" sx={{ fontWeight: 600, fontSize: 15 }}>
                            {t(`signup.${option}`)}
                          </Typography>
                        </Stack>
                        <Typography
                          component="span"
                          variant="caption"
                          color="text.secondary"
                          sx={{ lineHeight: 1.3 }}
                        >
                          {t(`signup.${option}Hint`)}
                        </Typography>
                      </ToggleButton>
                    ))}
                  </ToggleButtonGroup>
                )}
              />

              {userOption === 'company' ? (
                <TextField
                  {...register('entity_name')}
                  label={t('signup.entityName')}
                  autoComplete="organization"
                  required
                  fullWidth
                  disabled={busy}
                  error={Boolean(fieldError('entity_name'))}
                  helperText={fieldError('entity_name') ?? ' '}
                />
              ) : (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 2.25, sm: 2 }}>
                  <TextField
                    {...register('name')}
                    label={t('signup.name')}
                    autoComplete="given-name"
                    required
                    fullWidth
                    disabled={busy}
                    error={Boolean(fieldError('name'))}
                    helperText={fieldError('name') ?? ' '}
                  />
                  <TextField
                    {...register('surname')}
                    label={t('signup.surname')}
                    autoComplete="family-name"
                    required
                    fullWidth
                    disabled={busy}
                    error={Boolean(fieldError('surname'))}
                    helperText={fieldError('surname') ?? ' '}
                  />
                </Stack>
              )}

              <TextField
                {...register('nick', {
                  onChange: (event: { target: HTMLInputElement }) => {
                    event.target.value = event.target.value.toLowerCase();
                  },
                })}
                label={t('signup.nick')}
                autoComplete="username"
                required
                fullWidth
                disabled={busy}
                error={Boolean(fieldError('nick')) || nickCheck === 'taken'}
                helperText={helper('nick', t('signup.nickHint'))}
                slotProps={{
                  htmlInput: { autoCapitalize: 'none', spellCheck: false, maxLength: 64 },
                  input: {
                    startAdornment: (
                      <Box component="span" sx={{ color: 'text.secondary', mr: 0.25 }}>
                        @
                      </Box>
                    ),
                  },
                }}
              />
              <TextField
                {...register('email', {
                  onChange: (event: { target: HTMLInputElement }) => {
                    event.target.value = event.target.value.toLowerCase();
                  },
                })}
                type="email"
                label={t('signup.email')}
                autoComplete="email"
                required
                fullWidth
                disabled={busy}
                error={Boolean(fieldError('email')) || emailCheck === 'taken'}
                helperText={helper('email')}
                slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
              />
              <TextField
                {...register('phone')}
                type="tel"
                label={t('signup.phone')}
                autoComplete="tel"
                required
                fullWidth
                disabled={busy}
                error={Boolean(fieldError('phone')) || phoneCheck === 'taken'}
                helperText={helper('phone', t('signup.phoneHint'))}
              />
              {passwordLogin ? (
                <>
                  <TextField
                    {...register('password')}
                    type="password"
                    label={t('signup.password')}
                    autoComplete="new-password"
                    required
                    fullWidth
                    disabled={busy}
                    error={Boolean(fieldError('password'))}
                    helperText={fieldError('password') ?? t('signup.passwordHint')}
                  />
                  <TextField
                    {...register('password_repeat')}
                    type="password"
                    label={t('signup.passwordRepeat')}
                    autoComplete="new-password"
                    required
                    fullWidth
                    disabled={busy}
                    error={Boolean(fieldError('password_repeat'))}
                    helperText={fieldError('password_repeat') ?? ' '}
                  />
                </>
              ) : null}

              <Box>
                <Controller
                  control={control}
                  name="terms"
                  render={({ field }) => (
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={field.value}
                          onChange={(event) => field.onChange(event.target.checked)}
                          onBlur={field.onBlur}
                          disabled={busy}
                          slotProps={{
                            input: {
                              ref: field.ref,
                              'aria-invalid': Boolean(fieldError('terms')) || undefined,
                            },
                          }}
                        />
                      }
                      label={
                        <Typography variant="body2">
                          {t('signup.terms')}{' '}
                          <Link
                            component={RouterLink}
                            to="/legal/terms"
                            target="_blank"
                            rel="noopener"
                            sx={{ fontWeight: 600 }}
                          >
                            {t('signup.termsLink')}
                          </Link>
                        </Typography>
                      }
                    />
                  )}
                />
                {fieldError('terms') ? (
                  <FormHelperText error sx={{ mx: 1.75 }}>
                    {fieldError('terms')}
                  </FormHelperText>
                ) : null}
              </Box>

              {registerError ? (
                <Alert severity="error" role="alert">
                  {registerError}
                </Alert>
              ) : null}
              {flow.state.error ? (
                <Alert severity="error" role="alert">
                  {loginErrorText(flow.state.error)}
                </Alert>
              ) : null}
              {!authAvailable ? (
                <Alert severity="info">{t('login.errors.unavailable')}</Alert>
              ) : null}

              <Button
                type="submit"
                variant="contained"
                size="large"
                fullWidth
                disabled={busy}
                startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}
                sx={{ py: 1.4 }}
              >
                {busy ? t('signup.submitting') : t('signup.submit')}
              </Button>
              <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
                {t('signup.haveAccount')}{' '}
                <Link component={RouterLink} to="/session/login" sx={{ fontWeight: 600 }}>
                  {t('signup.login')}
                </Link>
              </Typography>
            </Stack>
          </Box>
        )}
      </Paper>
    </SessionPage>
  );
}
