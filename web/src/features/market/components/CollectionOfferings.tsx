import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { OfferingCard as Offering } from '@shared/schemas/offerings';
import { useId, useMemo } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { MARKET_PAGE_SIZE, useOfferingsList } from '../hooks/useMarket';
import { FavoriteButton } from './FavoriteButton';
import { OfferingList } from './OfferingList';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

const heart = (offering: Offering) => <FavoriteButton offering={offering} />;

/** A collection's published offerings (getofferings with collectionid), 50 a page. */
export function CollectionOfferings({ collectionId }: { collectionId: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const body = useMemo(
    () => ({ collectionid: collectionId, limit: MARKET_PAGE_SIZE }),
    [collectionId],
  );
  const query = useOfferingsList(body);
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ mt: { xs: 4, sm: 6 } }}>
      <Typography id={titleId} variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('market.collectionOfferings.title')}
      </Typography>
      <OfferingList
        query={query}
        label={t('market.collectionOfferings.title')}
        renderFavorite={heart}
        empty={
          <Typography color="text.secondary">{t('market.collectionOfferings.empty')}</Typography>
        }
      />
    </Box>
  );
}
