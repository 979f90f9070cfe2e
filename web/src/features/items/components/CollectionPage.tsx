import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { Collection } from '@shared/schemas/items';
import type { ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink, useParams } from 'react-router';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import { callerId, fetchCollectionPage, itemKeys } from '../api/items';
import { ItemGrid, ItemGridSkeleton, LoadMore } from './ItemGrid';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

function Meta({ title, image }: { title: string; image?: string }) {
  usePageMeta({ title, image });
  return null;
}

/**
 * /market/collection/:id: a collection's header and its items; `renderOfferings` adds what the
 * page composed around it (app/CollectionRoute.tsx) shows under them: the collection's offerings.
 */
export function CollectionPage({
  renderOfferings,
}: { renderOfferings?: (collection: Collection) => ReactNode } = {}) {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user, status } = useAuth();
  const caller = callerId(user?.id);
  const query = useInfiniteQuery({
    queryKey: itemKeys.collection(id),
    queryFn: ({ pageParam, signal }) => fetchCollectionPage(caller, id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    enabled: status !== 'loading',
  });
  const first = query.data?.pages[0];
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 3, sm: 5 } }}>
      {query.isPending ? (
        <ItemGridSkeleton label={t('items.collection.loading')} />
      ) : query.isError || !first ? (
        <StatusMessage
          role="alert"
          tone="error"
          icon={<CloudOffRoundedIcon />}
          title={t('items.collection.error')}
          body={errorText(query.error)}
          action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
        />
      ) : (
        <>
          <Meta
            title={t('meta.titleTemplate', { page: first.collection.title, app: t('app.name') })}
            image={first.collection.image.url}
          />
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mb: 3, flexWrap: 'wrap' }}>
            <Avatar
              variant="rounded"
              src={first.collection.image.thumb}
              alt=""
              sx={{ width: 96, height: 96 }}
            />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
                {first.collection.title}
              </Typography>
              <Typography color="text.secondary">
                {first.collection.symbol} · {t('items.detail.by')}{' '}
                <Link component={RouterLink} to={`/${first.collection.owner_nick}`}>
                  @{first.collection.owner_nick}
                </Link>
              </Typography>
            </Box>
          </Box>
          {items.length === 0 ? (
            <Typography color="text.secondary">{t('items.collection.empty')}</Typography>
          ) : (
            <ItemGrid items={items} label={t('items.collection.items')} />
          )}
          <LoadMore query={query} />
          {renderOfferings?.(first.collection)}
        </>
      )}
    </Container>
  );
}
