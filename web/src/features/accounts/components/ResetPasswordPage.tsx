import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { errorCodeOf } from '../../../lib/api';
import { LOGIN_PATH } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { toasts } from '../../../lib/toast';
import { resetPassword } from '../api/accounts';
import { passwordPairSchema } from '../schemas';
import { FORGOT_PATH } from './LoginSteps';
import { PasswordSwitchGate } from './PasswordSwitchGate';
import { SessionPage } from './SessionPage';
import passwordTexts from '../../../locales/en.password.json';

addTranslations({ password: passwordTexts });

/** /password/reset/:token? (spec 001 §2): a new password; 404 while passwordLogin is off. */
export function ResetPasswordPage() {
  return (
    <PasswordSwitchGate>
      <ResetPasswordForm />
    </PasswordSwitchGate>
  );
}

function InvalidLink({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Alert severity="error" role="alert">
        {text}
      </Alert>
      <Button component={RouterLink} to={FORGOT_PATH} variant="contained">
        {t('password.reset.newLink')}
      </Button>
    </Stack>
  );
}

function ResetPasswordForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { token } = useParams<{ token?: string }>();
  const titleId = useId();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('password.reset.title'), app: t('app.name') }),
    noIndex: true,
  });
  const { register, handleSubmit, formState } = useForm<{ password: string; repeat: string }>({
    resolver: zodResolver(passwordPairSchema),
    mode: 'onChange',
    defaultValues: { password: '', repeat: '' },
  });
  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: () => {
      toasts.show({ severity: 'success', message: t('password.reset.done') });
      void navigate(LOGIN_PATH, { replace: true });
    },
  });
  const busy = reset.isPending;
  const onSubmit = handleSubmit(({ password }) => {
    if (token) reset.mutate({ password, token });
  });
  const fieldText = (name: 'password' | 'repeat'): string => {
    const message = formState.errors[name]?.message;
    return message && formState.dirtyFields[name] ? (t as (key: string) => string)(message) : ' ';
  };
  const tokenRefused =
    reset.isError && errorCodeOf(reset.error) === 'password.errors.token_invalid';

  return (
    <SessionPage>
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: 500, p: { xs: 2.5, sm: 5 }, borderRadius: 4 }}
      >
        <Stack spacing={2.5}>
          <Stack spacing={1} sx={{ textAlign: 'center' }}>
            <Typography id={titleId} variant="h5" component="h1">
              {t('password.reset.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('password.reset.subtitle')}
            </Typography>
          </Stack>
          {!token ? (
            <InvalidLink text={t('password.reset.missingToken')} />
          ) : tokenRefused ? (
            <InvalidLink text={errorText(reset.error)} />
          ) : (
            <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={titleId}>
              <Stack spacing={2.5}>
                <TextField
                  {...register('password')}
                  type="password"
                  label={t('password.reset.password')}
                  autoComplete="new-password"
                  autoFocus
                  required
                  fullWidth
                  disabled={busy}
                  error={fieldText('password') !== ' '}
                  helperText={fieldText('password')}
                />
                <TextField
                  {...register('repeat')}
                  type="password"
                  label={t('password.reset.repeat')}
                  autoComplete="new-password"
                  required
                  fullWidth
                  disabled={busy}
                  error={fieldText('repeat') !== ' '}
                  helperText={fieldText('repeat')}
                />
                {reset.isError ? (
                  <Alert severity="error" role="alert">
                    {errorText(reset.error)}
                  </Alert>
                ) : null}
                <Button
                  type="submit"
                  variant="contained"
                  size="large"
                  fullWidth
                  disabled={!formState.isValid || busy}
                  startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}
                >
                  {busy ? t('password.reset.saving') : t('password.reset.submit')}
                </Button>
              </Stack>
            </Box>
          )}
          <Typography variant="body2" sx={{ textAlign: 'center' }}>
            <Link component={RouterLink} to={LOGIN_PATH}>
              {t('password.backToLogin')}
            </Link>
          </Typography>
        </Stack>
      </Paper>
    </SessionPage>
  );
}
