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
import { Link as RouterLink } from 'react-router';
import { LOGIN_PATH } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { requestPasswordReset } from '../api/accounts';
import { forgotPasswordFormSchema } from '../schemas';
import { PasswordSwitchGate } from './PasswordSwitchGate';
import { SessionPage } from './SessionPage';
import passwordTexts from '../../../locales/en.password.json';

addTranslations({ password: passwordTexts });

/** /session/forgot (spec 001 §2): asks for a reset link; 404 while passwordLogin is off. */
export function ForgotPasswordPage() {
  return (
    <PasswordSwitchGate>
      <ForgotPasswordForm />
    </PasswordSwitchGate>
  );
}

function ForgotPasswordForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const titleId = useId();
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('password.forgot.title'), app: t('app.name') }),
    noIndex: true,
  });
  const { register, handleSubmit, formState } = useForm<{ email: string }>({
    resolver: zodResolver(forgotPasswordFormSchema),
    mode: 'onChange',
    defaultValues: { email: '' },
  });
  const request = useMutation({ mutationFn: requestPasswordReset });
  const onSubmit = handleSubmit(({ email }) => request.mutate(email));
  const emailError = formState.errors.email?.message;
  const busy = request.isPending;

  return (
    <SessionPage>
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: 500, p: { xs: 2.5, sm: 5 }, borderRadius: 4 }}
      >
        <Stack spacing={2.5}>
          <Stack spacing={1} sx={{ textAlign: 'center' }}>
            <Typography id={titleId} variant="h5" component="h1">
              {t('password.forgot.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('password.forgot.subtitle')}
            </Typography>
          </Stack>
          {request.isSuccess ? (
            <Alert severity="success" role="status">
              {t('password.forgot.sent')}
            </Alert>
          ) : (
            <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={titleId}>
              <Stack spacing={2.5}>
                <TextField
                  {...register('email', {
                    onChange: (event: { target: HTMLInputElement }) => {
                      event.target.value = event.target.value.toLowerCase();
                    },
                  })}
                  type="email"
                  label={t('password.forgot.email')}
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
                {request.isError ? (
                  <Alert severity="error" role="alert">
                    {errorText(request.error)}
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
                  {busy ? t('password.forgot.sending') : t('password.forgot.submit')}
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
