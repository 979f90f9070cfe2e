import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { OFFERING_ID_PATTERN } from '@shared/schemas/offerings';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { RetryButton } from '../../../components/StatusMessage';
import { useErrorText } from '../../../lib/errors';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useItemOfferings, useOfferingsLive } from '../hooks/useOfferings';
import { NotAvailable, OfferingPanel, OfferingPanelSkeleton } from './OfferingPanel';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/**
 * The offerings of an item on its page (spec 000 §2 item detail): the one a link names
 * (`?offering=<id>`) first, then those the viewer may see on the market, 10 at a time. Each one
 * is read again when the live channel says it changed; `onCopiesMoved` hears when its copies
 * went back to their owner or to a buyer.
 */
export function ItemOfferings({
  itemId,
  onCopiesMoved,
}: {
  itemId: string;
  onCopiesMoved?: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const focus = params.get('offering');
  const focusValid = focus !== null && OFFERING_ID_PATTERN.test(focus);
  const list = useItemOfferings(itemId);
  const cards = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const others = cards.filter((card) => card.id !== focus);
  const shown = useMemo(
    () => [
      ...(focusValid ? [focus] : []),
      ...cards.map((card) => card.id).filter((id) => id !== focus),
    ],
    [cards, focus, focusValid],
  );
  useOfferingsLive(shown, onCopiesMoved);

  return (
    <Box component="section" aria-labelledby="offerings-title" sx={{ mt: { xs: 4, sm: 6 } }}>
      <Typography id="offerings-title" variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('offering.section.title')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2 }}>
        {focus === null ? null : focusValid ? (
          <OfferingPanel
            offeringId={focus}
            card={cards.find((card) => card.id === focus)}
            focused
            onCopiesMoved={onCopiesMoved}
          />
        ) : (
          <NotAvailable />
        )}
        {list.isPending ? (
          <Box
            role="status"
            aria-label={t('offering.section.loading')}
            sx={{ display: 'grid', gap: 2 }}
          >
            <OfferingPanelSkeleton />
          </Box>
        ) : list.isLoadingError ? (
          <Alert
            severity="error"
            action={<RetryButton onClick={() => void list.refetch()} busy={list.isFetching} />}
          >
            {t('offering.section.loadFailed')}: {errorText(list.error)}
          </Alert>
        ) : others.length === 0 && focus === null ? (
          <Typography color="text.secondary">{t('offering.section.empty')}</Typography>
        ) : (
          others.map((card) => (
            <OfferingPanel
              key={card.id}
              offeringId={card.id}
              card={card}
              onCopiesMoved={onCopiesMoved}
            />
          ))
        )}
      </Box>
      {list.hasNextPage ? (
        <Box sx={{ mt: 2, textAlign: 'center' }}>
          <Button onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            {t('offering.section.loadMore')}
          </Button>
        </Box>
      ) : null}
      {list.isFetchNextPageError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorText(list.error)}
        </Alert>
      ) : null}
    </Box>
  );
}
