import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import EditRoundedIcon from '@mui/icons-material/EditRounded';
import PeopleAltRoundedIcon from '@mui/icons-material/PeopleAltRounded';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { abbreviateCount } from '@shared/format';
import { lazy, Suspense, useEffect, useId, useRef, type ComponentType } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink, useLocation } from 'react-router';
import { VerifiedMark } from '../../../components/VerifiedMark';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { editProfileModal } from '../../../lib/editProfileStore';
import { useErrorText } from '../../../lib/errors';
import { useProfile } from '../hooks/useProfile';
import { displayName, tagline, type PublicProfile } from '../schemas';
import { FollowButton } from './FollowButton';
import profilesTexts from '../../../locales/en.profiles.json';

addTranslations({ profiles: profilesTexts });

/* The carousel of the user's past offerings is its own chunk (the offerings client and schemas). */
const UserCardOfferings = lazy(() =>
  import('./UserCardOfferings').then(
    (module) => ({ default: module.UserCardOfferings }),
    // Offline or a new deployment: the card goes on without it.
    (): { default: ComponentType<{ nick: string }> } => ({ default: () => null }),
  ),
);

/**
 * The user full card (spec 001 §2): avatar, name with the verified crown, @nick, title or slogan,
 * followers (follows on), summary, follow/unfollow (not on one's own card, where a mobile edit icon
 * opens the profile editor instead), the carousel of the user's closed or no-bid offerings, and
 * See Profile. Max width 500, full screen on extra small.
 */
export function UserCardModal({ nick, onClose }: { nick: string; onClose: () => void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const query = useProfile(nick);
  const titleId = useId();
  const name = query.data ? displayName(query.data) || query.data.nick : null;
  // Leaving the page (See Profile, the back button) closes the card.
  const { pathname } = useLocation();
  const openedAt = useRef(pathname);
  useEffect(() => {
    if (pathname !== openedAt.current) onClose();
  }, [pathname, onClose]);
  return (
    <Dialog
      open
      onClose={onClose}
      fullScreen={fullScreen}
      fullWidth
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { maxWidth: fullScreen ? undefined : 500 } } }}
    >
      <DialogTitle
        id={titleId}
        sx={{ pr: 7, fontSize: '1rem', color: 'text.secondary', fontWeight: 600 }}
      >
        {name ? t('profiles.card.titleOf', { name }) : t('profiles.card.title')}
      </DialogTitle>
      <IconButton
        aria-label={t('common.close')}
        onClick={onClose}
        sx={{ position: 'absolute', right: 12, top: 10 }}
      >
        <CloseRoundedIcon />
      </IconButton>
      <DialogContent sx={{ pt: 0 }}>
        {query.isPending ? (
          <CardSkeleton />
        ) : query.isError ? (
          <CardError error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <CardBody profile={query.data} onClose={onClose} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CardSkeleton() {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-label={t('profiles.loading')}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, py: 2 }}
    >
      <Skeleton variant="circular" width={96} height={96} />
      <Skeleton width="50%" height={32} />
      <Skeleton width="30%" height={20} />
      <Skeleton width="80%" height={60} />
    </Box>
  );
}

function CardError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <Alert
      severity="error"
      sx={{ my: 2 }}
      action={
        missing ? undefined : (
          <Button color="inherit" size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )
      }
    >
      {missing ? t('users.errors.not_found') : errorText(error)}
    </Alert>
  );
}

function CardBody({ profile, onClose }: { profile: PublicProfile; onClose: () => void }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { follows } = useSwitches();
  const own = user?.id === profile.id;
  const name = displayName(profile) || profile.nick;
  const line = tagline(profile);
  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1,
        pt: 1,
        pb: 1,
      }}
    >
      <Avatar
        src={profile.profile_image ?? undefined}
        alt={t('profiles.avatarAlt', { name })}
        sx={{ width: 96, height: 96, fontSize: 40, fontWeight: 700, bgcolor: 'primary.main' }}
      >
        {name.charAt(0).toUpperCase()}
      </Avatar>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, maxWidth: '100%' }}>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        {profile.is_verified ? <VerifiedMark size={22} /> : null}
        {own ? (
          <IconButton
            aria-label={t('profiles.edit')}
            onClick={() => {
              onClose();
              editProfileModal.open();
            }}
            size="small"
            sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
          >
            <EditRoundedIcon fontSize="small" />
          </IconButton>
        ) : null}
      </Box>
      <Typography color="text.secondary" sx={{ fontWeight: 500 }}>
        @{profile.nick}
      </Typography>
      {line ? <Typography sx={{ fontWeight: 500 }}>{line}</Typography> : null}
      {follows ? (
        <Box
          sx={{
            display: 'inline-flex',
            alignItems: 'center',
            gap: 0.75,
            color: 'text.secondary',
          }}
        >
          <PeopleAltRoundedIcon fontSize="small" aria-hidden />
          <span>
            {t('profiles.card.followers', {
              count: profile.followers_counter,
              formatted: abbreviateCount(profile.followers_counter),
            })}
          </span>
        </Box>
      ) : null}
      {profile.summary ? (
        <Typography
          color="text.secondary"
          sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere', mt: 1 }}
        >
          {profile.summary}
        </Typography>
      ) : null}
      <Suspense fallback={null}>
        <UserCardOfferings nick={profile.nick} />
      </Suspense>
      <Box
        sx={{
          mt: 2,
          display: 'flex',
          gap: 1.5,
          flexWrap: 'wrap',
          justifyContent: 'center',
          width: '100%',
        }}
      >
        {!own && follows ? <FollowButton profile={profile} /> : null}
        <Button variant="outlined" component={RouterLink} to={`/${profile.nick}`} onClick={onClose}>
          {t('profiles.card.seeProfile')}
        </Button>
      </Box>
    </Box>
  );
}
