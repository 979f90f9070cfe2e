import Box from '@mui/material/Box';
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { RetryButton } from '../../../components/StatusMessage';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { callerId, fetchPublicProducts, itemKeys } from '../api/items';
import { ItemGrid, ItemGridSkeleton, LoadMore } from './ItemGrid';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

/** The items a user shows on their public profile (getpublicproducts). */
export function PublicItemsSection({ nick }: { nick: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user, status } = useAuth();
  const caller = callerId(user?.id);
  const query = useInfiniteQuery({
    queryKey: itemKeys.public(nick),
    queryFn: ({ pageParam, signal }) => fetchPublicProducts(caller, nick, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: status !== 'loading',
  });
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const title = t('items.public.title');
  return (
    <Box component="section" aria-labelledby="public-items-title" sx={{ mt: { xs: 3, sm: 4 } }}>
      <Typography id="public-items-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {query.isPending ? (
        <ItemGridSkeleton label={t('items.public.loading')} />
      ) : query.isError ? (
        <Alert
          severity="error"
          action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
        >
          {errorText(query.error)}
        </Alert>
      ) : items.length === 0 ? (
        <Typography color="text.secondary">{t('items.public.empty')}</Typography>
      ) : (
        <>
          <ItemGrid items={items} label={title} />
          <LoadMore query={query} />
        </>
      )}
    </Box>
  );
}
