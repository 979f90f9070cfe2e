import FavoriteBorderRoundedIcon from '@mui/icons-material/FavoriteBorderRounded';
import FavoriteRoundedIcon from '@mui/icons-material/FavoriteRounded';
import IconButton from '@mui/material/IconButton';
import type { OfferingDetail } from '@shared/schemas/offerings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { offeringKeys, setFavorite } from '../../../lib/offerings';
import { usePermission } from '../../../lib/permission';
import { toasts } from '../../../lib/toast';
import { useOfferingCache } from '../hooks/useOfferings';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/**
 * The favourite heart (spec 000 §6 favourites: login, and a company verified): guests get the
 * login modal through the permission guard. The heart turns at once and back if the call fails.
 */
export function FavoriteButton({ offering }: { offering: OfferingDetail }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user } = useAuth();
  const guard = usePermission();
  const { patch } = useOfferingCache();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (favorite: boolean) => setFavorite(user?.id ?? '', offering.id, favorite),
    onMutate: (favorite) => {
      patch(offering.id, { favorite });
      return { before: !favorite };
    },
    onError: (error, favorite, context) => {
      patch(offering.id, { favorite: context?.before ?? !favorite });
      toasts.show({ severity: 'error', message: errorText(error) });
    },
    onSuccess: (answer) => {
      patch(offering.id, { favorite: answer.favorite });
      if (user) void queryClient.invalidateQueries({ queryKey: offeringKeys.favorites(user.id) });
    },
  });
  const favorite = offering.favorite;
  return (
    <IconButton
      onClick={() => guard('favourites', () => mutation.mutate(!favorite))}
      disabled={mutation.isPending}
      aria-label={favorite ? t('offering.favorite.remove') : t('offering.favorite.add')}
      color={favorite ? 'error' : 'default'}
    >
      {favorite ? <FavoriteRoundedIcon /> : <FavoriteBorderRoundedIcon />}
    </IconButton>
  );
}
