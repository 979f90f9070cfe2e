import CancelRoundedIcon from '@mui/icons-material/CancelRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PROFILE_LIMITS } from '@shared/constants/limits';
import { MAX_INVITED, type OfferingDetail } from '@shared/schemas/offerings';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { addInvitations } from '../../../lib/offerings';
import { toasts } from '../../../lib/toast';
import { useOfferingCache } from '../hooks/useOfferings';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/** A nick as the API takes it (shared/schemas/profiles.ts nickSchema). */
const NICK = new RegExp(`^[a-z0-9]{${PROFILE_LIMITS.nickMin},${PROFILE_LIMITS.nickMax}}$`);

/**
 * The invitation modal of a private offering's seller (spec 000 §2): usernames as chips, up to
 * MAX_INVITED invited users in all; add-invitations answers the full invited list.
 */
export function InviteDialog({
  offering,
  open,
  onClose,
}: {
  offering: OfferingDetail;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user } = useAuth();
  const { patch } = useOfferingCache();
  const titleId = useId();
  const [draft, setDraft] = useState('');
  const [nicks, setNicks] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const invited = offering.invited;
  const room = Math.max(0, MAX_INVITED - invited.length);

  const mutation = useMutation({
    mutationFn: (list: string[]) => addInvitations(user?.id ?? '', offering.id, list),
    onSuccess: (answer, list) => {
      patch(offering.id, { invited: answer.invited });
      toasts.show({
        severity: 'success',
        message: t('offering.invite.sent', { count: list.length }),
      });
      setNicks([]);
      onClose();
    },
  });

  /** Adds what is typed; false (with the reason shown) when it cannot be added. */
  const add = (): boolean => {
    const nick = draft.trim().replace(/^@/, '').toLowerCase();
    if (nick === '') return true;
    if (!NICK.test(nick)) {
      setProblem(t('offering.invite.invalidNick'));
      return false;
    }
    if (nicks.includes(nick) || invited.some((each) => each.nick === nick)) {
      setProblem(t('offering.invite.duplicate', { nick }));
      return false;
    }
    if (nicks.length >= room) {
      setProblem(t('offering.invite.limit', { max: MAX_INVITED }));
      return false;
    }
    setNicks((list) => [...list, nick]);
    setDraft('');
    setProblem(null);
    return true;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ',' || event.key === ' ') {
      event.preventDefault();
      add();
    } else if (event.key === 'Backspace' && draft === '' && nicks.length > 0) {
      setNicks((list) => list.slice(0, -1));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!add()) return;
    const typed = draft.trim().replace(/^@/, '').toLowerCase();
    const list = typed !== '' && !nicks.includes(typed) ? [...nicks, typed] : nicks;
    if (list.length === 0) {
      setProblem(t('offering.invite.invalidNick'));
      return;
    }
    mutation.mutate(list);
  };
  const close = () => {
    if (mutation.isPending) return;
    onClose();
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={submit} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{t('offering.invite.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('offering.invite.body')}</DialogContentText>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <TextField
              label={t('offering.invite.nick')}
              value={draft}
              onChange={(event) => {
                setDraft(event.target.value);
                setProblem(null);
              }}
              onKeyDown={onKeyDown}
              error={problem !== null}
              helperText={problem ?? t('offering.invite.help', { max: MAX_INVITED })}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              disabled={room === 0}
              fullWidth
              size="small"
              slotProps={{ htmlInput: { maxLength: PROFILE_LIMITS.nickMax + 1 } }}
            />
            <Button onClick={() => add()} disabled={room === 0} sx={{ flexShrink: 0, mt: 0.25 }}>
              {t('offering.invite.add')}
            </Button>
          </Box>
          {nicks.length > 0 ? (
            <Box
              component="ul"
              aria-label={t('offering.invite.chosen')}
              sx={{
                listStyle: 'none',
                p: 0,
                m: 0,
                mt: 2,
                display: 'flex',
                gap: 1,
                flexWrap: 'wrap',
              }}
            >
              {nicks.map((nick) => (
                <li key={nick}>
                  <Chip
                    label={`@${nick}`}
                    onDelete={() => setNicks((list) => list.filter((each) => each !== nick))}
                    deleteIcon={
                      <CancelRoundedIcon
                        aria-hidden={false}
                        aria-label={t('offering.invite.remove', { nick })}
                      />
                    }
                  />
                </li>
              ))}
            </Box>
          ) : null}
          <Typography variant="subtitle2" component="h3" sx={{ mt: 3, mb: 1 }}>
            {t('offering.invite.alreadyInvited')} ({invited.length}/{MAX_INVITED})
          </Typography>
          {invited.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('offering.seller.nobodyInvited')}
            </Typography>
          ) : (
            <Box
              component="ul"
              aria-label={t('offering.invite.alreadyInvited')}
              sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', gap: 1, flexWrap: 'wrap' }}
            >
              {invited.map((each) => (
                <li key={each.id}>
                  <Chip size="small" variant="outlined" label={`@${each.nick}`} />
                </li>
              ))}
            </Box>
          )}
          {mutation.isError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorText(mutation.error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={mutation.isPending}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={mutation.isPending}>
            {t('offering.invite.send')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
