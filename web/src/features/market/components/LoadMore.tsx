import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

/** The part of an infinite query a list's foot needs. */
export interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * The foot of a paged market list: "Load more" (busy while the next page loads), or the next
 * page's failure with a retry (`failedText`), or nothing on the last page.
 */
export function LoadMore({ query, failedText }: { query: MorePages; failedText: string }) {
  const { t } = useTranslation();
  if (query.isFetchNextPageError) {
    return (
      <Alert
        severity="error"
        sx={{ mt: 3 }}
        action={
          <Button color="inherit" size="small" onClick={() => void query.fetchNextPage()}>
            {t('common.retry')}
          </Button>
        }
      >
        {failedText}
      </Alert>
    );
  }
  if (!query.hasNextPage) return null;
  return (
    <Box sx={{ textAlign: 'center', mt: 3 }}>
      <Button
        variant="outlined"
        onClick={() => void query.fetchNextPage()}
        disabled={query.isFetchingNextPage}
        startIcon={
          query.isFetchingNextPage ? <CircularProgress size={16} aria-hidden /> : undefined
        }
      >
        {query.isFetchingNextPage ? t('market.grid.loadingMore') : t('market.grid.loadMore')}
      </Button>
    </Box>
  );
}
