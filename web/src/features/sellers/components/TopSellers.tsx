import ArrowForwardRoundedIcon from '@mui/icons-material/ArrowForwardRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useDeferredValue } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import { useSwitches } from '../../../lib/config';
import { useTopSellers } from '../hooks/useSellers';
import { TOP_SELLERS_LIMIT } from '../sizes';
import { SellerCard, SellerCardSkeleton } from './SellerCard';
import homeTexts from '../../../locales/en.home.json';

addTranslations({ home: homeTexts });

const stripSx = {
  listStyle: 'none',
  m: 0,
  p: 0,
  display: 'grid',
  gap: { xs: 1.5, sm: 2 },
  gridTemplateColumns: {
    xs: 'repeat(2, minmax(0, 1fr))',
    sm: 'repeat(4, minmax(0, 1fr))',
  },
} as const;

/** The home page's "Top sellers" strip: the most followed sellers, linking to the directory. */
export function TopSellers() {
  const { t } = useTranslation();
  const { follows } = useSwitches();
  // The cards render in a transition once the answer is in: a slow phone stays responsive.
  const query = useDeferredValue(useTopSellers(TOP_SELLERS_LIMIT));

  let content;
  if (query.isPending) {
    content = (
      <Box role="status" aria-label={t('sellers.loadingList')} aria-busy="true" sx={stripSx}>
        {Array.from({ length: TOP_SELLERS_LIMIT }, (_, index) => (
          <SellerCardSkeleton key={index} variant="tile" />
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
        {t('home.topSellers.error')}
      </Alert>
    );
  } else if (query.data.length === 0) {
    content = (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        {t('home.topSellers.empty')}
      </Typography>
    );
  } else {
    content = (
      <Box component="ul" aria-label={t('home.topSellers.title')} sx={stripSx}>
        {query.data.map((seller) => (
          <li key={seller.id}>
            <SellerCard seller={seller} showFollowers={follows} variant="tile" />
          </li>
        ))}
      </Box>
    );
  }

  return (
    <Box component="section" aria-labelledby="top-sellers-title">
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
          <Typography id="top-sellers-title" variant="h4" component="h2">
            {t('home.topSellers.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {t('home.topSellers.subtitle')}
          </Typography>
        </Box>
        <Button
          component={RouterLink}
          to="/sellers"
          endIcon={<ArrowForwardRoundedIcon />}
          sx={{ flexShrink: 0, ml: { xs: -1, sm: 0 } }}
        >
          {t('home.topSellers.seeAll')}
        </Button>
      </Box>
      {content}
    </Box>
  );
}
