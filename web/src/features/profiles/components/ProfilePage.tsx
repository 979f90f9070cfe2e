import ArticleRoundedIcon from '@mui/icons-material/ArticleRounded';
import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import EditRoundedIcon from '@mui/icons-material/EditRounded';
import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import LinkedInIcon from '@mui/icons-material/LinkedIn';
import PeopleAltRoundedIcon from '@mui/icons-material/PeopleAltRounded';
import PlaceRoundedIcon from '@mui/icons-material/PlaceRounded';
import XIcon from '@mui/icons-material/X';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { PROFILE_LIMITS } from '@shared/constants/limits';
import { abbreviateCount } from '@shared/format';
import type { ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { LazyTooltip } from '../../../components/LazyTooltip';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useSwitches } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { ErrorPage } from '../../../components/ErrorPage';
import { VerifiedMark } from '../../../components/VerifiedMark';
import { editProfileModal } from '../../../lib/editProfileStore';
import { useProfile } from '../hooks/useProfile';
import {
  displayName,
  isEmbedUrl,
  isProfileNick,
  SOCIAL_NETWORKS,
  tagline,
  type PublicProfile,
  type SocialNetwork,
} from '../schemas';
import { FollowButton } from './FollowButton';
import profilesTexts from '../../../locales/en.profiles.json';

addTranslations({ profiles: profilesTexts });

const SOCIAL_ICONS: Record<SocialNetwork, ReactNode> = {
  linkedin: <LinkedInIcon />,
  twitter: <XIcon />,
  instagram: <InstagramIcon />,
  facebook: <FacebookIcon />,
  medium: <ArticleRoundedIcon />,
};

const AVATAR = { xs: 112, sm: 148 } as const;
const COVER_HEIGHT = { xs: 180, sm: PROFILE_LIMITS.coverHeightPx } as const;
const BAND_HEIGHT = { xs: 96, sm: 140 } as const;
/*
 * The skeleton and the profile each fill at least a screen, so the footer starts below the fold:
 * when the profile replaces the skeleton (a cover is taller than the band) and the items load
 * under it, nothing already on screen moves (layout shift).
 */
const PROFILE_MIN_HEIGHT = '100vh';

/** `/:usernick`: the public profile (spec 001 §2). Reserved or malformed segments are a 404. */
export function ProfilePage({ renderItems }: { renderItems?: (nick: string) => ReactNode } = {}) {
  const { usernick = '' } = useParams();
  if (!isProfileNick(usernick)) return <ErrorPage status={404} />;
  return <ProfileLoader key={usernick} nick={usernick} renderItems={renderItems} />;
}

function ProfileLoader({
  nick,
  renderItems,
}: {
  nick: string;
  renderItems?: ((nick: string) => ReactNode) | undefined;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useProfile(nick);
  const app = t('app.name');

  if (query.isPending) return <ProfileSkeleton />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) {
      return <ErrorPage status={404} />;
    }
    return (
      <Container maxWidth="md" sx={{ py: { xs: 4, sm: 8 } }}>
        <PageMeta title={t('meta.titleTemplate', { page: `@${nick}`, app })} />
        <StatusMessage
          role="alert"
          tone="error"
          icon={<CloudOffRoundedIcon />}
          title={t('profiles.error.title')}
          body={errorText(query.error)}
          action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
        />
      </Container>
    );
  }
  return <ProfileView profile={query.data} renderItems={renderItems} />;
}

function PageMeta(meta: { title: string; description?: string; image?: string }) {
  usePageMeta(meta);
  return null;
}

function ProfileSkeleton() {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-label={t('profiles.loading')}
      aria-busy="true"
      sx={{ minHeight: PROFILE_MIN_HEIGHT }}
    >
      <Skeleton variant="rectangular" sx={{ height: BAND_HEIGHT, transform: 'none' }} />
      <Container maxWidth="md">
        <Box sx={{ mt: { xs: -7, sm: -9 }, display: 'flex', flexDirection: 'column', gap: 1 }}>
          <Skeleton
            variant="circular"
            sx={{ width: AVATAR, height: AVATAR, border: '4px solid #fff' }}
          />
          <Skeleton width="40%" height={40} />
          <Skeleton width="20%" height={24} />
          <Skeleton width="60%" height={24} />
          <Skeleton variant="rounded" height={120} sx={{ mt: 2 }} />
        </Box>
      </Container>
    </Box>
  );
}

function ProfileView({
  profile,
  renderItems,
}: {
  profile: PublicProfile;
  renderItems?: ((nick: string) => ReactNode) | undefined;
}) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { follows } = useSwitches();
  const own = user?.id === profile.id;
  const company = profile.user_option === 'company';
  const name = displayName(profile);
  const line = tagline(profile);
  const app = t('app.name');
  const description =
    profile.summary || line || t('profiles.metaDescription', { name, nick: profile.nick, app });
  const links = SOCIAL_NETWORKS.flatMap((network) => {
    const href = profile.social_media[network];
    return href ? [{ network, href }] : [];
  });
  const video = profile.video_url && isEmbedUrl(profile.video_url) ? profile.video_url : null;

  return (
    <Box
      component="article"
      aria-labelledby="profile-name"
      sx={{ pb: { xs: 4, sm: 8 }, minHeight: PROFILE_MIN_HEIGHT }}
    >
      <PageMeta
        title={t('meta.titleTemplate', { page: `${name} (@${profile.nick})`, app })}
        description={description}
        image={profile.profile_image ?? undefined}
      />
      <Box
        sx={{
          height: company ? COVER_HEIGHT : BAND_HEIGHT,
          background: 'linear-gradient(120deg, #4F46E5 0%, #7C3AED 55%, #0F766E 100%)',
          backgroundImage:
            company && profile.header_image ? `url("${profile.header_image}")` : undefined,
          backgroundSize: 'cover',
          backgroundPosition: 'center',
        }}
        role={company && profile.header_image ? 'img' : undefined}
        aria-label={company && profile.header_image ? t('profiles.coverAlt', { name }) : undefined}
      />
      <Container maxWidth="md">
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            alignItems: { xs: 'flex-start', sm: 'flex-end' },
            gap: { xs: 1.5, sm: 3 },
            mt: { xs: -7, sm: -9 },
          }}
        >
          <Avatar
            src={profile.profile_image ?? undefined}
            alt={t('profiles.avatarAlt', { name })}
            sx={{
              width: AVATAR,
              height: AVATAR,
              fontSize: { xs: 44, sm: 56 },
              fontWeight: 700,
              bgcolor: 'primary.main',
              border: '4px solid #FFFFFF',
              boxShadow: '0 8px 24px -8px rgba(15, 23, 42, 0.35)',
            }}
          >
            {name.charAt(0).toUpperCase()}
          </Avatar>
          <Box
            sx={{
              flex: 1,
              minWidth: 0,
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'flex-end',
              justifyContent: 'space-between',
              gap: 2,
              pb: { sm: 1 },
              width: { xs: '100%', sm: 'auto' },
            }}
          >
            <Box sx={{ minWidth: 0 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography
                  id="profile-name"
                  variant="h4"
                  component="h1"
                  sx={{ fontSize: { xs: '1.6rem', sm: '2.1rem' }, overflowWrap: 'anywhere' }}
                >
                  {name}
                </Typography>
                {profile.is_verified ? <VerifiedMark size={26} /> : null}
              </Box>
              <Typography color="text.secondary" sx={{ fontWeight: 500 }}>
                @{profile.nick}
              </Typography>
            </Box>
            <Box sx={{ display: 'flex', gap: 1 }}>
              {own ? (
                <Button
                  variant="outlined"
                  startIcon={<EditRoundedIcon />}
                  onClick={() => editProfileModal.open()}
                  sx={{ bgcolor: 'background.paper' }}
                >
                  {t('profiles.edit')}
                </Button>
              ) : follows ? (
                <FollowButton profile={profile} />
              ) : null}
            </Box>
          </Box>
        </Box>

        {line ? (
          <Typography sx={{ mt: 2, fontSize: '1.1rem', fontWeight: 500 }}>{line}</Typography>
        ) : null}

        <Box
          sx={{
            mt: 1.5,
            display: 'flex',
            flexWrap: 'wrap',
            gap: { xs: 1.5, sm: 3 },
            color: 'text.secondary',
            alignItems: 'center',
          }}
        >
          {follows ? (
            <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
              <PeopleAltRoundedIcon fontSize="small" aria-hidden />
              <span>
                <Box component="strong" sx={{ color: 'text.primary' }}>
                  {abbreviateCount(profile.followers_counter)}
                </Box>{' '}
                {t('profiles.followersLabel', { count: profile.followers_counter })}
              </span>
            </Box>
          ) : null}
          {company && profile.entity_address ? (
            <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
              <PlaceRoundedIcon fontSize="small" aria-hidden />
              <span>{profile.entity_address}</span>
            </Box>
          ) : null}
          {links.length > 0 ? (
            <Box
              component="ul"
              aria-label={t('profiles.socialLinks')}
              sx={{ display: 'flex', gap: 0.5, listStyle: 'none', m: 0, p: 0 }}
            >
              {links.map(({ network, href }) => (
                <li key={network}>
                  <LazyTooltip title={t(`profiles.social.${network}`)}>
                    <IconButton
                      component="a"
                      href={href}
                      target="_blank"
                      rel="noopener noreferrer nofollow"
                      aria-label={t('profiles.socialOn', {
                        network: t(`profiles.social.${network}`),
                      })}
                      size="small"
                      sx={{ color: 'text.secondary' }}
                    >
                      {SOCIAL_ICONS[network]}
                    </IconButton>
                  </LazyTooltip>
                </li>
              ))}
            </Box>
          ) : null}
        </Box>

        <Box
          sx={{
            mt: { xs: 3, sm: 4 },
            display: 'grid',
            gap: { xs: 2, sm: 3 },
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: video ? '1fr 1fr' : '1fr' },
          }}
        >
          <Paper variant="outlined" component="section" sx={{ p: { xs: 2.5, sm: 3 } }}>
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('profiles.about')}
            </Typography>
            <Typography
              color={profile.summary ? 'text.primary' : 'text.secondary'}
              sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
            >
              {profile.summary || t('profiles.noSummary', { name })}
            </Typography>
          </Paper>
          {video ? (
            <Paper
              variant="outlined"
              component="section"
              aria-label={t('profiles.video')}
              sx={{ p: 0, overflow: 'hidden', aspectRatio: '16 / 9', minHeight: 0 }}
            >
              <Box
                component="iframe"
                src={video}
                title={t('profiles.videoTitle', { name })}
                loading="lazy"
                allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
                referrerPolicy="strict-origin-when-cross-origin"
                sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
                sx={{ border: 0, width: '100%', height: '100%', display: 'block' }}
              />
            </Paper>
          ) : null}
        </Box>
        {renderItems ? renderItems(profile.nick) : null}
      </Container>
    </Box>
  );
}
