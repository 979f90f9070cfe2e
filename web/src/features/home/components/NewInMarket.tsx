import ArrowForwardRoundedIcon from '@mui/icons-material/ArrowForwardRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PAGE_SIZE } from '@shared/constants/limits';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { Link as RouterLink } from 'react-router';
import { OfferingCard, OfferingCardSkeleton } from '../../../components/OfferingCard';
import { useAuth } from '../../../lib/auth';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { getOfferings, offeringKeys } from '../../../lib/offerings';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

const MARKET = '/market/preview/marketplace';
const BODY = { limit: PAGE_SIZE.small };

/** A row that scrolls sideways on a phone and is a grid of five from 960 px. */
const stripSx = {
  listStyle: 'none',
  m: 0,
  p: 0,
  display: 'grid',
  gap: { xs: 1.5, sm: 2 },
  gridAutoFlow: { xs: 'column', md: 'row' },
  gridAutoColumns: { xs: '44%', sm: '30%' },
  gridTemplateColumns: { md: 'repeat(5, minmax(0, 1fr))' },
  overflowX: { xs: 'auto', md: 'visible' },
  scrollSnapType: { xs: 'x mandatory', md: 'none' },
  pb: { xs: 1, md: 0 },
  '& > li': { scrollSnapAlign: 'start', minWidth: 0 },
} as const;

/**
 * The home page's "New in the market": the 10 newest offerings and a link to the market. Its own
 * chunk (the home page loads it after its first paint), so the offerings client, its schemas and
 * the card stay out of the home page's first download.
 */
export function NewInMarket() {
  const { t } = useTranslation();
  const { user, status } = useAuth();
  const viewer = user?.id ?? null;
  const query = useDeferredValue(
    useQuery({
      queryKey: offeringKeys.market(BODY, viewer ?? '-'),
      queryFn: ({ signal }) => getOfferings(viewer, BODY, signal),
      enabled: status !== 'loading',
    }),
  );

  let content;
  if (query.isPending) {
    content = (
      <Box role="status" aria-label={t('market.grid.loading')} aria-busy="true" sx={stripSx}>
        {Array.from({ length: 5 }, (_, index) => (
          <OfferingCardSkeleton key={index} />
        ))}
      </Box>
    );
  } else if (query.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      >
        {t('market.errors.offerings')}
      </Alert>
    );
  } else if (query.data.items.length === 0) {
    content = (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        {t('market.home.empty')}
      </Typography>
    );
  } else {
    content = (
      <Box component="ul" aria-label={t('market.home.title')} sx={stripSx}>
        {query.data.items.map((offering) => (
          <li key={offering.id}>
            <OfferingCard offering={offering} />
          </li>
        ))}
      </Box>
    );
  }

  return (
    <Box component="section" aria-labelledby="new-in-market-title">
      <Box
        sx={{
          display: 'flex',
          alignItems: { xs: 'flex-start', sm: 'flex-end' },
          justifyContent: 'space-between',
          flexDirection: { xs: 'column', sm: 'row' },
          gap: 1.5,
          mb: 3,
        }}
      >
        <Box>
          <Typography id="new-in-market-title" variant="h4" component="h2">
            {t('market.home.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {t('market.home.subtitle')}
          </Typography>
        </Box>
        <Button
          component={RouterLink}
          to={MARKET}
          endIcon={<ArrowForwardRoundedIcon />}
          sx={{ flexShrink: 0, ml: { xs: -1, sm: 0 } }}
        >
          {t('market.home.seeAll')}
        </Button>
      </Box>
      {content}
    </Box>
  );
}
