import Avatar from '@mui/material/Avatar';
import type { SellerSummary } from '@shared/schemas/profiles';
import { useTranslation } from '../../../lib/i18n';

const FALLBACK_COLOR = '#4F46E5';
const PALETTE = ['#4F46E5', '#7C3AED', '#0F766E', '#B45309', '#BE185D', '#1D4ED8', '#047857'];

function colorFor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length] ?? FALLBACK_COLOR;
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => word?.[0] ?? '')
    .join('')
    .toUpperCase();
}

/** The seller's picture, or initials on a colour derived from the id when there is none. */
export function SellerAvatar({ seller, size }: { seller: SellerSummary; size: number }) {
  const { t } = useTranslation();
  return (
    <Avatar
      src={seller.profile_image ?? undefined}
      alt={t('sellers.avatarAlt', { name: seller.name })}
      slotProps={{ img: { loading: 'lazy', decoding: 'async' } }}
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.38,
        fontWeight: 700,
        bgcolor: colorFor(seller.id),
        color: '#FFFFFF',
        boxShadow: '0 0 0 3px #FFFFFF, 0 0 0 4px rgba(15, 23, 42, 0.08)',
      }}
    >
      {initials(seller.name)}
    </Avatar>
  );
}
