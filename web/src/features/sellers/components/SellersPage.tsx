import SearchOffRoundedIcon from '@mui/icons-material/PersonSearchRounded';
import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useDeferredValue } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useSwitches } from '../../../lib/config';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { useProgressiveCount } from '../../../lib/useProgressiveCount';
import { useSellerDirectory } from '../hooks/useSellers';
import { SellerCard, SellerCardSkeleton } from './SellerCard';

const SKELETON_CARDS = 12;
const CARDS_PER_STEP = 12;

const gridSx = {
  listStyle: 'none',
  m: 0,
  p: 0,
  display: 'grid',
  gap: { xs: 1.5, sm: 2 },
  gridTemplateColumns: {
    xs: 'minmax(0, 1fr)',
    sm: 'repeat(2, minmax(0, 1fr))',
    md: 'repeat(3, minmax(0, 1fr))',
  },
} as const;

/** `/sellers`: the seller directory (spec 001 §7 GET /api/users/sellers). */
export function SellersPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const app = t('app.name');
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('meta.sellers.title'), app }),
    description: t('meta.sellers.description', { app }),
  });
  const { follows } = useSwitches();
  // The cards render in a transition once the answer is in: a slow phone stays responsive.
  const directory = useDeferredValue(useSellerDirectory());
  const { data, error, isPending, isError, isFetching, hasNextPage, isFetchingNextPage } =
    directory;
  // A page of 50 cards mounts a dozen at a time (the first screenful first).
  const shown = useProgressiveCount(data?.sellers.length ?? 0, CARDS_PER_STEP);

  let content;
  if (isPending) {
    content = (
      <Box role="status" aria-label={t('sellers.loadingList')} aria-busy="true">
        <Box sx={gridSx}>
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <SellerCardSkeleton key={index} />
          ))}
        </Box>
      </Box>
    );
  } else if (isError && !data) {
    content = (
      <StatusMessage
        role="alert"
        tone="error"
        icon={<CloudOffRoundedIcon />}
        title={t('sellers.error.title')}
        body={errorText(error)}
        action={<RetryButton onClick={() => void directory.refetch()} busy={isFetching} />}
      />
    );
  } else if (data.sellers.length === 0) {
    content = (
      <StatusMessage
        role="status"
        icon={<SearchOffRoundedIcon />}
        title={t('sellers.empty.title')}
        body={t('sellers.empty.body')}
      />
    );
  } else {
    content = (
      <>
        <Box component="ul" aria-label={t('sellers.listLabel')} sx={gridSx}>
          {data.sellers.slice(0, shown).map((seller) => (
            <li key={seller.id}>
              <SellerCard seller={seller} showFollowers={follows} />
            </li>
          ))}
        </Box>
        <Box
          sx={{ mt: 4, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2 }}
          aria-live="polite"
        >
          {directory.isFetchNextPageError ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void directory.fetchNextPage()}>
                  {t('common.retry')}
                </Button>
              }
            >
              {t('sellers.error.more')} {errorText(error)}
            </Alert>
          ) : null}
          {hasNextPage && !directory.isFetchNextPageError ? (
            <Button
              variant="outlined"
              size="large"
              onClick={() => void directory.fetchNextPage()}
              loading={isFetchingNextPage}
              loadingPosition="start"
              sx={{ minWidth: 220, bgcolor: 'background.paper' }}
            >
              {isFetchingNextPage ? t('sellers.loadingMore') : t('sellers.loadMore')}
            </Button>
          ) : null}
          {!hasNextPage && data.pageCount > 1 ? (
            <Typography variant="body2" color="text.secondary">
              {t('sellers.end')}
            </Typography>
          ) : null}
        </Box>
      </>
    );
  }

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box component="header" sx={{ mb: { xs: 3, sm: 4 } }}>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: '2rem', sm: '2.5rem' } }}>
          {t('sellers.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, fontSize: '1.05rem', maxWidth: 640 }}>
          {t('sellers.subtitle', { app })}
        </Typography>
      </Box>
      {content}
    </Container>
  );
}
