import PeopleAltRoundedIcon from '@mui/icons-material/PeopleAltRounded';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { abbreviateCount } from '@shared/format';
import type { SellerSummary } from '@shared/schemas/profiles';
import { useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import { VerifiedMark } from '../../../components/VerifiedMark';
import { userCard } from '../../../lib/userCardStore';
import { SellerAvatar } from './SellerAvatar';

interface SellerCardProps {
  seller: SellerSummary;
  /** Follower counts show only while the follows feature is on. */
  showFollowers: boolean;
  /** 'row' in the directory, 'tile' (centred) in the home page strip. */
  variant?: 'row' | 'tile';
}

function Followers({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        color: 'text.secondary',
        fontSize: '0.875rem',
        fontWeight: 500,
        whiteSpace: 'nowrap',
      }}
    >
      <PeopleAltRoundedIcon sx={{ fontSize: 18 }} aria-hidden />
      <span>{t('sellers.followers', { count, formatted: abbreviateCount(count) })}</span>
    </Box>
  );
}

function SellerName({ seller, centered }: { seller: SellerSummary; centered: boolean }) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.5,
        minWidth: 0,
        justifyContent: centered ? 'center' : 'flex-start',
      }}
    >
      <Typography
        component="h3"
        noWrap
        sx={{ fontWeight: 700, fontSize: '1.02rem', lineHeight: 1.3 }}
        title={seller.name}
      >
        {/* A stretched link: the whole card opens the profile, named by the seller's name. */}
        <Link
          component={RouterLink}
          to={`/${seller.nick}`}
          underline="none"
          color="inherit"
          sx={{
            '&::after': { content: '""', position: 'absolute', inset: 0, borderRadius: '16px' },
            '&:focus-visible': { outline: 'none' },
            '&:focus-visible::after': {
              outline: '3px solid rgba(79, 70, 229, 0.55)',
              outlineOffset: 2,
            },
          }}
        >
          {seller.name}
        </Link>
      </Typography>
      {seller.is_verified ? <VerifiedMark size={18} /> : null}
    </Box>
  );
}

export function SellerCard({ seller, showFollowers, variant = 'row' }: SellerCardProps) {
  const { t } = useTranslation();
  const tile = variant === 'tile';
  return (
    <Card
      component="article"
      sx={{
        position: 'relative',
        height: '100%',
        p: tile ? 2.5 : 2.25,
        display: 'flex',
        flexDirection: tile ? 'column' : 'row',
        alignItems: 'center',
        textAlign: tile ? 'center' : 'left',
        gap: tile ? 1.5 : 2,
        transition: 'box-shadow 160ms ease, border-color 160ms ease, transform 160ms ease',
        '&:hover': {
          borderColor: 'rgba(79, 70, 229, 0.35)',
          boxShadow: '0 10px 30px -12px rgba(30, 27, 75, 0.25)',
          transform: 'translateY(-2px)',
        },
      }}
    >
      {/* Above the stretched link: the avatar opens the seller's full card (spec 001 §2). */}
      <Box
        component="button"
        type="button"
        onClick={() => userCard.open(seller.nick)}
        aria-label={t('sellers.openCard', { name: seller.name })}
        aria-haspopup="dialog"
        sx={{
          position: 'relative',
          zIndex: 1,
          p: 0,
          border: 0,
          bgcolor: 'transparent',
          borderRadius: '50%',
          cursor: 'pointer',
          display: 'inline-flex',
          flexShrink: 0,
          '&:focus-visible': { outline: '3px solid rgba(79, 70, 229, 0.55)', outlineOffset: 3 },
        }}
      >
        <SellerAvatar seller={seller} size={tile ? 72 : 60} />
      </Box>
      <Box sx={{ minWidth: 0, flex: 1, width: tile ? '100%' : 'auto' }}>
        <SellerName seller={seller} centered={tile} />
        <Typography variant="body2" color="text.secondary" noWrap>
          @{seller.nick}
        </Typography>
        {seller.title && !tile ? (
          <Typography variant="body2" noWrap sx={{ mt: 0.25 }} title={seller.title}>
            {seller.title}
          </Typography>
        ) : null}
        <Box
          sx={{
            mt: 1,
            display: 'flex',
            alignItems: 'center',
            flexWrap: 'wrap',
            gap: 1,
            justifyContent: tile ? 'center' : 'flex-start',
          }}
        >
          {showFollowers ? <Followers count={seller.followers_counter} /> : null}
          {seller.user_option === 'company' && !tile ? (
            <Chip
              label={t('sellers.company')}
              size="small"
              variant="outlined"
              sx={{ height: 22 }}
            />
          ) : null}
        </Box>
      </Box>
    </Card>
  );
}

export function SellerCardSkeleton({ variant = 'row' }: { variant?: 'row' | 'tile' }) {
  const tile = variant === 'tile';
  return (
    <Card
      sx={{
        height: '100%',
        p: tile ? 2.5 : 2.25,
        display: 'flex',
        flexDirection: tile ? 'column' : 'row',
        alignItems: 'center',
        gap: tile ? 1.5 : 2,
      }}
    >
      <Skeleton variant="circular" width={tile ? 72 : 60} height={tile ? 72 : 60} />
      <Box
        sx={{
          flex: 1,
          width: '100%',
          display: 'flex',
          flexDirection: 'column',
          alignItems: tile ? 'center' : 'stretch',
        }}
      >
        <Skeleton width="70%" height={24} />
        <Skeleton width="45%" height={20} />
        <Skeleton width="35%" height={20} sx={{ mt: 0.5 }} />
      </Box>
    </Card>
  );
}
