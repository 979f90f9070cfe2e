import CheckRoundedIcon from '@mui/icons-material/CheckRounded';
import PersonAddRoundedIcon from '@mui/icons-material/PersonAddRounded';
import Button from '@mui/material/Button';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePermission } from '../../../lib/permission';
import { toasts } from '../../../lib/toast';
import { useFollowMutation, useIsFollowing } from '../hooks/useProfile';
import type { PublicProfile } from '../schemas';
import profilesTexts from '../../../locales/en.profiles.json';

addTranslations({ profiles: profilesTexts });

/**
 * Follow / unfollow (spec 001 §6: needs login). The permission guard sends guests to the login
 * modal; the owner of the profile gets no button at all.
 */
export function FollowButton({ profile }: { profile: PublicProfile }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { status, user } = useAuth();
  const guard = usePermission();
  const own = user?.id === profile.id;
  const loggedIn = status === 'user' && !own;
  const relation = useIsFollowing(profile.id, loggedIn);
  const mutation = useFollowMutation(profile);
  if (own) return null;
  if (status === 'loading') {
    // The session is not known yet (a first visit's profile can arrive before it): the button
    // holds its place, so nothing under it moves when it becomes usable.
    return (
      <Button
        variant="contained"
        disabled
        startIcon={<PersonAddRoundedIcon />}
        sx={{ minWidth: 132 }}
      >
        {t('profiles.follow')}
      </Button>
    );
  }

  const following = loggedIn && relation.data === true;
  const busy = mutation.isPending || (loggedIn && relation.isPending);
  const onClick = () => {
    guard('follow', () =>
      mutation.mutate(!following, {
        onError: (error) => toasts.show({ severity: 'error', message: errorText(error) }),
      }),
    );
  };
  return (
    <Button
      variant={following ? 'outlined' : 'contained'}
      onClick={onClick}
      loading={busy}
      loadingPosition="start"
      startIcon={following ? <CheckRoundedIcon /> : <PersonAddRoundedIcon />}
      aria-pressed={loggedIn ? following : undefined}
      sx={{ minWidth: 132 }}
    >
      {following ? t('profiles.following') : t('profiles.follow')}
    </Button>
  );
}
