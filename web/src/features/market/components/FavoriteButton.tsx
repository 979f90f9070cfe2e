import FavoriteBorderRoundedIcon from '@mui/icons-material/FavoriteBorderRounded';
import FavoriteRoundedIcon from '@mui/icons-material/FavoriteRounded';
import IconButton from '@mui/material/IconButton';
import type { OfferingCard } from '@shared/schemas/offerings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { offeringKeys, setFavorite } from '../../../lib/offerings';
import { usePermission } from '../../../lib/permission';
import { toasts } from '../../../lib/toast';
import { useFavoriteIds, useFavoritesCache } from '../hooks/useMarket';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

interface FavoriteButtonProps {
  offering: OfferingCard;
  /**
   * Whether it is a favourite, when the list knows (the Favorites tab: every card is); otherwise
   * the caller's favourites say.
   */
  favorite?: boolean;
}

/**
 * The heart on a market card (spec 000 §6 favourites: login, and a verified company). The
 * permission guard sends guests to the login modal and unverified companies to the verify or
 * onboarding modal. The heart turns at once (the Favorites list drops the card at once) and turns
 * back, with a toast, if the call fails; either way the favourites are read again afterwards.
 */
export function FavoriteButton({ offering, favorite: known }: FavoriteButtonProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user, status } = useAuth();
  const userId = user?.id ?? null;
  const guard = usePermission();
  const queryClient = useQueryClient();
  const ids = useFavoriteIds(known === undefined ? userId : null);
  const applyToCache = useFavoritesCache(userId);
  const mutation = useMutation({
    mutationFn: (next: boolean) => setFavorite(userId ?? '', offering.id, next),
    onMutate: async (next) => {
      if (userId !== null) {
        await queryClient.cancelQueries({ queryKey: offeringKeys.favorites(userId) });
      }
      return { undo: applyToCache(offering, next) };
    },
    onError: (error, _next, context) => {
      context?.undo();
      toasts.show({ severity: 'error', message: errorText(error) });
    },
    onSettled: () => {
      if (userId !== null) {
        void queryClient.invalidateQueries({ queryKey: offeringKeys.favorites(userId) });
      }
    },
  });
  const favorite =
    userId === null
      ? false
      : mutation.isPending
        ? mutation.variables
        : (known ?? ids.data?.includes(offering.id) ?? false);
  // A signed-in heart waits for the favourites (it would otherwise add one that is already there).
  const unknown = status === 'loading' || (userId !== null && known === undefined && !ids.data);
  // Named in the card's context (an article named by the offering's title).
  const label = favorite ? t('market.favorite.remove') : t('market.favorite.add');
  return (
    <IconButton
      onClick={() => guard('favourites', () => mutation.mutate(!favorite))}
      disabled={unknown || mutation.isPending}
      aria-label={label}
      aria-pressed={userId === null ? undefined : favorite}
      size="small"
      sx={{
        bgcolor: 'rgba(255, 255, 255, 0.9)',
        color: favorite ? 'error.main' : 'text.secondary',
        boxShadow: '0 1px 4px rgba(15, 23, 42, 0.18)',
        '&:hover': { bgcolor: '#FFFFFF' },
        '&.Mui-disabled': { bgcolor: 'rgba(255, 255, 255, 0.75)' },
      }}
    >
      {favorite ? (
        <FavoriteRoundedIcon fontSize="small" />
      ) : (
        <FavoriteBorderRoundedIcon fontSize="small" />
      )}
    </IconButton>
  );
}
