import ArrowBackRoundedIcon from '@mui/icons-material/ArrowBackRounded';
import MailOutlineRoundedIcon from '@mui/icons-material/MailOutlineRounded';
import SmartphoneRoundedIcon from '@mui/icons-material/SmartphoneRounded';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import { useSwitches } from '../../../lib/config';
import type { LoginFlow } from '../hooks/useLoginFlow';
import { loginWaitSeconds } from '../loginErrors';
import { loginFormSchema, PIN_LENGTH, type LoginForm } from '../schemas';
import { PinInput } from './PinInput';
import { FORGOT_PATH, SIGNUP_PATH } from '../paths';
import loginTexts from '../../../locales/en.login.json';

addTranslations({ login: loginTexts });

export { FORGOT_PATH, SIGNUP_PATH };

/**
 * The text of a login error key (login.errors.*, rate_limited, network…); a wait
 * (`login.errors.wait:<seconds>`) reads in seconds under a minute, else in minutes rounded up.
 */
export function useLoginErrorText(): (code: string) => string {
  const { t, i18n } = useTranslation();
  return (code: string) => {
    const seconds = loginWaitSeconds(code);
    if (seconds !== undefined) {
      const time =
        seconds < 60
          ? t('login.errors.waitSeconds', { count: Math.max(1, seconds) })
          : t('login.errors.waitMinutes', { count: Math.ceil(seconds / 60) });
      return t('login.errors.wait', { time });
    }
    return i18n.exists(code) ? (t as (key: string) => string)(code) : t('login.errors.500');
  };
}

type HeadingLevel = 'h1' | 'h2';

function StepHeading({
  icon,
  title,
  body,
  level,
}: {
  icon: ReactNode;
  title: string;
  body: ReactNode;
  level: HeadingLevel;
}) {
  return (
    <Stack spacing={1.25} sx={{ alignItems: 'center', textAlign: 'center' }}>
      <Box
        aria-hidden
        sx={{
          width: 56,
          height: 56,
          borderRadius: '50%',
          display: 'grid',
          placeItems: 'center',
          color: 'primary.main',
          bgcolor: (theme) => alpha(theme.palette.primary.main, 0.1),
        }}
      >
        {icon}
      </Box>
      <Typography variant="h5" component={level}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 360 }}>
        {body}
      </Typography>
    </Stack>
  );
}

interface EmailStepProps {
  flow: LoginFlow;
  /** Heading level and wording for the page (h1) or the modal title (h2). */
  titleId?: string;
  onSignup?: () => void;
  /** h1 on the login page, h2 in the modal. */
  level?: HeadingLevel;
}

/** Step 0: the e-mail (lower-cased); the button is disabled until it is valid. */
export function EmailStep({ flow, titleId, onSignup, level = 'h2' }: EmailStepProps) {
  const { t } = useTranslation();
  const errorText = useLoginErrorText();
  const switches = useSwitches();
  const errorId = useId();
  const { register, handleSubmit, formState } = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema(switches.passwordLogin)),
    mode: 'onChange',
    defaultValues: { email: flow.state.email, password: '' },
  });
  const { busy, error } = flow.state;
  const emailError = formState.errors.email?.message;
  const passwordError = formState.errors.password?.message;
  const onSubmit = handleSubmit(({ email, password }) =>
    flow.start(email, switches.passwordLogin ? password : undefined),
  );
  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={titleId}>
      <Stack spacing={2.5}>
        <Stack spacing={1} sx={{ textAlign: 'center' }}>
          <Typography id={titleId} variant="h5" component={level}>
            {t('login.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('login.subtitle')}
          </Typography>
        </Stack>
        <TextField
          {...register('email', {
            setValueAs: (value: string) => value.trim().toLowerCase(),
            onChange: (event: { target: HTMLInputElement }) => {
              event.target.value = event.target.value.toLowerCase();
            },
          })}
          type="email"
          label={t('login.email')}
          autoComplete="email"
          autoFocus
          fullWidth
          disabled={busy}
          error={Boolean(emailError && formState.dirtyFields.email)}
          helperText={
            emailError && formState.dirtyFields.email
              ? (t as (key: string) => string)(emailError)
              : ' '
          }
          slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
        />
        {switches.passwordLogin ? (
          <TextField
            {...register('password')}
            type="password"
            label={t('login.password')}
            autoComplete="current-password"
            fullWidth
            disabled={busy}
            error={Boolean(passwordError && formState.dirtyFields.password)}
            helperText={
              passwordError && formState.dirtyFields.password
                ? (t as (key: string) => string)(passwordError)
                : ' '
            }
          />
        ) : null}
        {switches.passwordLogin ? (
          <Typography variant="body2" sx={{ textAlign: 'right', mt: -1.5 }}>
            <Link component={RouterLink} to={FORGOT_PATH} onClick={onSignup}>
              {t('login.forgot')}
            </Link>
          </Typography>
        ) : null}
        {error ? (
          <Alert severity="error" id={errorId} role="alert">
            {errorText(error)}
          </Alert>
        ) : null}
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={!formState.isValid || busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}
          sx={{ py: 1.4 }}
        >
          {busy ? t('login.sending') : t('login.submit')}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
          {t('login.noAccount')}{' '}
          <Link component={RouterLink} to={SIGNUP_PATH} onClick={onSignup} sx={{ fontWeight: 600 }}>
            {t('login.signup')}
          </Link>
        </Typography>
      </Stack>
    </Box>
  );
}

/** Steps 1 and 2: the 4-digit e-mail pin, then the phone pin; a new pin can be asked for. */
export function PinStep({
  flow,
  onBack,
  level = 'h2',
  showStepCount = true,
}: {
  flow: LoginFlow;
  onBack?: () => void;
  level?: HeadingLevel;
  /** "Step 1 of 2" (the sign-up page has its own stepper). */
  showStepCount?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useLoginErrorText();
  const [pin, setPin] = useState('');
  const { step, busy, error, destination, triesLeft, resent, cooldown, email } = flow.state;
  const phone = step === 2;
  const hintId = useId();
  // A refused pin, or the next step, starts from an empty code.
  const submit = (value: string) => {
    if (value.length === PIN_LENGTH && !busy) void flow.answer(value).then(() => setPin(''));
  };
  const where = destination ?? (phone ? t('login.pin.yourPhone') : email);
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit(pin);
      }}
    >
      <Stack spacing={3}>
        <StepHeading
          level={level}
          icon={phone ? <SmartphoneRoundedIcon /> : <MailOutlineRoundedIcon />}
          title={phone ? t('login.pin.phoneTitle') : t('login.pin.emailTitle')}
          body={
            <>
              {t('login.pin.sentTo')}{' '}
              <Box component="strong" sx={{ color: 'text.primary', whiteSpace: 'nowrap' }}>
                {where}
              </Box>
            </>
          }
        />
        {showStepCount ? (
          <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
            {t('login.pin.stepOf', { step, total: 2 })}
          </Typography>
        ) : null}
        <PinInput
          key={step}
          value={pin}
          onChange={setPin}
          onComplete={submit}
          label={phone ? t('login.pin.phoneLabel') : t('login.pin.emailLabel')}
          disabled={busy}
          error={Boolean(error)}
          autoFocus
          describedBy={hintId}
        />
        <Box id={hintId} aria-live="polite" sx={{ minHeight: 24, textAlign: 'center' }}>
          {error ? (
            <Typography variant="body2" color="error" role="alert">
              {errorText(error)}
              {triesLeft !== null ? ` ${t('login.pin.triesLeft', { count: triesLeft })}` : ''}
            </Typography>
          ) : resent ? (
            <Typography variant="body2" color="success.main">
              {t('login.pin.resent')}
            </Typography>
          ) : null}
        </Box>
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          disabled={pin.length !== PIN_LENGTH || busy}
          startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}
          sx={{ py: 1.4 }}
        >
          {busy ? t('login.pin.checking') : t('login.pin.verify')}
        </Button>
        <Stack
          direction="row"
          sx={{ justifyContent: onBack ? 'space-between' : 'center', alignItems: 'center' }}
        >
          {onBack ? (
            <Button
              variant="text"
              color="inherit"
              startIcon={<ArrowBackRoundedIcon />}
              onClick={onBack}
              disabled={busy}
            >
              {t('login.pin.back')}
            </Button>
          ) : null}
          <Button variant="text" onClick={() => void flow.resend()} disabled={busy || cooldown > 0}>
            {cooldown > 0 ? t('login.pin.resendIn', { seconds: cooldown }) : t('login.pin.resend')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

/** Step 3: "logging in", with the error and a way back when it fails. */
export function LoggingInStep({ flow }: { flow: LoginFlow }) {
  const { t } = useTranslation();
  const errorText = useLoginErrorText();
  const { busy, error } = flow.state;
  return (
    <Stack
      spacing={2.5}
      role="status"
      aria-live="polite"
      aria-busy={busy}
      sx={{ alignItems: 'center', textAlign: 'center', py: 4 }}
    >
      {error ? (
        <>
          <Alert severity="error" sx={{ width: '100%' }}>
            {errorText(error)}
          </Alert>
          <Button variant="contained" onClick={flow.reset}>
            {t('common.retry')}
          </Button>
        </>
      ) : (
        <>
          <CircularProgress size={48} thickness={4} aria-hidden />
          <Typography variant="h6" component="p">
            {t('login.loggingIn')}
          </Typography>
        </>
      )}
    </Stack>
  );
}

/** The whole flow after step 0's e-mail: pins, then logging in. */
export function LoginSteps({
  flow,
  titleId,
  onSignup,
  level = 'h2',
}: {
  flow: LoginFlow;
  titleId?: string;
  onSignup?: () => void;
  level?: HeadingLevel;
}) {
  const { step } = flow.state;
  if (step === 0) {
    return <EmailStep flow={flow} titleId={titleId} onSignup={onSignup} level={level} />;
  }
  if (step === 3) return <LoggingInStep flow={flow} />;
  return <PinStep flow={flow} onBack={flow.reset} level={level} />;
}
