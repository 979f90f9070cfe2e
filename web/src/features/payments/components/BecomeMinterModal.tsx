import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import OpenInNewRoundedIcon from '@mui/icons-material/OpenInNewRounded';
import PublicOffRoundedIcon from '@mui/icons-material/PublicOffRounded';
import StorefrontRoundedIcon from '@mui/icons-material/StorefrontRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { EXPRESS_COUNTRIES, type OnboardingStatus } from '@shared/onboarding';
import type { Action } from '@shared/permissions';
import { COUNTRY_CODES } from '@shared/schemas/addresses';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { countryName, countryOptions } from '../../../lib/countries';
import { addTranslations, useTranslation, type TextKey } from '../../../lib/i18n';
import { useOwnProfile } from '../../../lib/ownProfile';
import minterTexts from '../../../locales/en.minter.json';
import { useMinterFlow, type MinterFlow } from '../hooks/useMinterFlow';
import { ctaDisabled, ctaLabel, isSeller, type MinterState } from '../minterFlow';

addTranslations({ minter: minterTexts });

export interface BecomeMinterModalProps {
  userId: string;
  /** The guarded action that asked for onboarding (null: opened from a menu or a page). */
  action: Action | null;
  onClose: () => void;
}

/**
 * The become-minter modal (spec 001 §2, §4): seller onboarding with Stripe Connect Express. While
 * the own profile loads it shows a spinner; then the flow (useMinterFlow) starts from the kept
 * status. BecomeMinterHost mounts it while open; closing unmounts it, which resets it.
 */
export function BecomeMinterModal({ userId, action, onClose }: BecomeMinterModalProps) {
  const profile = useOwnProfile(userId);
  const titleId = useId();
  // A begin or refresh in flight keeps the modal open (its window is waiting for the answer).
  const [closable, setClosable] = useState(true);
  const loadingProfile = profile.isPending;
  // A profile that could not be read: the check call says where onboarding stands.
  const kept = profile.isError ? 'unknown' : (profile.data?.onboarding_status ?? null);
  return (
    <Dialog
      open
      onClose={closable ? onClose : undefined}
      aria-labelledby={titleId}
      fullWidth
      slotProps={{ paper: { sx: { maxWidth: 500, m: { xs: 2, sm: 4 }, borderRadius: 3 } } }}
    >
      {loadingProfile ? (
        <MinterFrame titleId={titleId} seller={false} onClose={onClose} closable>
          <Checking />
        </MinterFrame>
      ) : (
        <MinterFlowView
          userId={userId}
          kept={kept}
          action={action}
          titleId={titleId}
          onClose={onClose}
          onClosableChange={setClosable}
        />
      )}
    </Dialog>
  );
}

function MinterFlowView({
  userId,
  kept,
  action,
  titleId,
  onClose,
  onClosableChange,
}: {
  userId: string;
  kept: string | null;
  action: Action | null;
  titleId: string;
  onClose: () => void;
  onClosableChange: (closable: boolean) => void;
}) {
  const { t } = useTranslation();
  const flow = useMinterFlow(userId, kept);
  const { state } = flow;
  const closable = state.busy !== 'call';
  useEffect(() => onClosableChange(closable), [closable, onClosableChange]);
  return (
    <MinterFrame
      titleId={titleId}
      seller={isSeller(state.status)}
      onClose={onClose}
      closable={closable}
      actions={<StepActions flow={flow} onClose={onClose} />}
    >
      {action !== null && state.step === 0 && !isSeller(state.status) ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('minter.guarded')}
        </Alert>
      ) : null}
      <StepContent flow={flow} />
    </MinterFrame>
  );
}

function MinterFrame({
  titleId,
  seller,
  onClose,
  closable,
  actions,
  children,
}: {
  titleId: string;
  seller: boolean;
  onClose: () => void;
  closable: boolean;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <DialogTitle id={titleId} sx={{ display: 'flex', alignItems: 'center', gap: 1.5, pr: 7 }}>
        <Box component="span" aria-hidden sx={{ display: 'inline-flex', color: 'primary.main' }}>
          <StorefrontRoundedIcon />
        </Box>
        {seller ? t('minter.titleSeller') : t('minter.title')}
      </DialogTitle>
      <IconButton
        aria-label={t('minter.close')}
        onClick={onClose}
        disabled={!closable}
        sx={{ position: 'absolute', right: 12, top: 12 }}
      >
        <CloseRoundedIcon />
      </IconButton>
      <DialogContent>{children}</DialogContent>
      {actions ? (
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1, flexWrap: 'wrap' }}>{actions}</DialogActions>
      ) : null}
    </>
  );
}

function Checking() {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 4 }}
    >
      <CircularProgress aria-hidden />
      <Typography color="text.secondary">{t('minter.checking')}</Typography>
    </Box>
  );
}

/** Moves the focus to a step's heading when the step changes, so it is read out. */
function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <Typography
      ref={ref}
      tabIndex={-1}
      variant="h6"
      component="h3"
      sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 1, outline: 'none' }}
    >
      {children}
    </Typography>
  );
}

function ErrorAlert({ state, onRetry }: { state: MinterState; onRetry?: () => void }) {
  const { t } = useTranslation();
  if (state.error === null) return null;
  return (
    <Alert
      severity={state.error === 'onboarding.errors.pending' ? 'warning' : 'error'}
      sx={{ mt: 2 }}
      action={
        onRetry ? (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    >
      {t(state.error as TextKey)}
    </Alert>
  );
}

function StatusChip({ status }: { status: OnboardingStatus }) {
  const { t } = useTranslation();
  const color = isSeller(status)
    ? 'success'
    : status === 'pending' || status === 'pending_email'
      ? 'warning'
      : status === 'become_minter'
        ? 'default'
        : 'info';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
      <Typography variant="body2" color="text.secondary" component="span">
        {t('minter.statusLabel')}
      </Typography>
      <Chip size="small" color={color} label={t(`minter.status.${status}`)} />
    </Box>
  );
}

function StepContent({ flow }: { flow: MinterFlow }) {
  const { t, i18n } = useTranslation();
  const { state } = flow;
  const countries = useMemo(() => countryOptions(COUNTRY_CODES, i18n.language), [i18n.language]);
  const countryId = useId();

  if (state.step === 1) {
    return (
      <Box key="country">
        <StepHeading>{t('minter.country.title')}</StepHeading>
        <Typography color="text.secondary" sx={{ mb: 2.5 }}>
          {t('minter.country.body')}
        </Typography>
        <TextField
          id={countryId}
          select
          fullWidth
          label={t('minter.country.label')}
          value={state.country}
          onChange={(event) => flow.selectCountry(event.target.value)}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          autoComplete="country"
        >
          <option value="">{t('minter.country.placeholder')}</option>
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </TextField>
      </Box>
    );
  }

  if (state.step === 3) {
    return (
      <Box key="invalid" sx={{ textAlign: 'center', py: 1 }}>
        <PublicOffRoundedIcon aria-hidden sx={{ fontSize: 48, color: 'warning.main', mb: 1 }} />
        <StepHeading>
          {t('minter.invalidCountry.title', {
            country: countryName(state.country, i18n.language),
          })}
        </StepHeading>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t('onboarding.errors.invalid_country')}
        </Typography>
        <Typography color="text.secondary">{t('minter.invalidCountry.body')}</Typography>
      </Box>
    );
  }

  if (state.step === 2) {
    if (state.busy === 'call') {
      return (
        <Box
          key="opening"
          role="status"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 3 }}
        >
          <CircularProgress aria-hidden />
          <Typography sx={{ fontWeight: 600 }}>{t('minter.redirect.opening')}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
            {t('minter.redirect.openingHint')}
          </Typography>
        </Box>
      );
    }
    if (state.redirected) {
      const seller = isSeller(state.status);
      return (
        <Box key="redirected" sx={{ textAlign: 'center', py: 1 }}>
          <OpenInNewRoundedIcon aria-hidden sx={{ fontSize: 44, color: 'primary.main', mb: 1 }} />
          <StepHeading>
            {seller ? t('minter.redirect.dashboardTitle') : t('minter.redirect.title')}
          </StepHeading>
          <Typography color="text.secondary">
            {seller ? t('minter.redirect.dashboardBody') : t('minter.redirect.body')}
          </Typography>
          {state.busy === 'check' ? (
            <Box role="status" sx={{ mt: 2 }}>
              <CircularProgress size={24} aria-label={t('minter.checking')} />
            </Box>
          ) : null}
          <ErrorAlert state={state} />
        </Box>
      );
    }
    return (
      <Box key="failed">
        <ErrorAlert state={state} />
      </Box>
    );
  }

  // Step 0: the status and the call-to-action.
  if (state.status === null) {
    return state.busy === 'check' ? (
      <Checking />
    ) : (
      <ErrorAlert state={state} onRetry={flow.check} />
    );
  }
  return (
    <Box key="status">
      <StatusChip status={state.status} />
      <Typography sx={{ mb: 1.5 }}>{t(`minter.intro.${state.status}`)}</Typography>
      {state.status === 'become_minter' ? (
        <Box
          component="ul"
          sx={{ m: 0, pl: 2.5, color: 'text.secondary', display: 'grid', gap: 0.5 }}
        >
          <li>{t('minter.points.identity')}</li>
          <li>{t('minter.points.window')}</li>
          <li>{t('minter.points.country', { count: EXPRESS_COUNTRIES.length })}</li>
        </Box>
      ) : null}
      {state.busy === 'check' ? (
        <Box role="status" sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress size={24} aria-label={t('minter.checking')} />
        </Box>
      ) : null}
      <ErrorAlert
        state={state}
        onRetry={state.error === 'onboarding.errors.refreshing' ? flow.check : undefined}
      />
    </Box>
  );
}

function StepActions({ flow, onClose }: { flow: MinterFlow; onClose: () => void }) {
  const { t } = useTranslation();
  const { state } = flow;
  const busy = state.busy !== null;
  switch (state.step) {
    case 1:
      return (
        <>
          <Button color="inherit" onClick={flow.back}>
            {t('minter.back')}
          </Button>
          <Button
            variant="contained"
            onClick={flow.submitCountry}
            disabled={state.country === '' || busy}
          >
            {t('minter.country.continue')}
          </Button>
        </>
      );
    case 2:
      if (state.busy === 'call') return null;
      if (state.redirected) {
        return (
          <>
            <Button color="inherit" onClick={flow.check} disabled={busy}>
              {t('minter.redirect.checkStatus')}
            </Button>
            <Button variant="contained" onClick={onClose}>
              {t('minter.redirect.done')}
            </Button>
          </>
        );
      }
      return (
        <>
          <Button color="inherit" onClick={onClose}>
            {t('minter.close')}
          </Button>
          <Button variant="contained" onClick={flow.back}>
            {t('minter.back')}
          </Button>
        </>
      );
    case 3:
      return (
        <>
          <Button color="inherit" onClick={onClose}>
            {t('minter.close')}
          </Button>
          <Button variant="contained" onClick={flow.back}>
            {t('minter.back')}
          </Button>
        </>
      );
    default:
      return (
        <>
          <Button color="inherit" onClick={onClose}>
            {t('minter.close')}
          </Button>
          <Button
            variant="contained"
            onClick={flow.primary}
            disabled={ctaDisabled(state)}
            loading={state.busy === 'check'}
            endIcon={ctaLabel(state) === 'minter' ? <OpenInNewRoundedIcon /> : undefined}
          >
            {ctaLabel(state) === 'minter' ? t('minter.minterCta') : t('minter.cta')}
          </Button>
        </>
      );
  }
}
