import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { ItemSummary } from '@shared/schemas/items';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { Link as RouterLink } from 'react-router';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

const GRID = {
  listStyle: 'none',
  p: 0,
  m: 0,
  display: 'grid',
  gap: 2,
  gridTemplateColumns: {
    xs: 'repeat(2, minmax(0, 1fr))',
    sm: 'repeat(auto-fill, minmax(200px, 1fr))',
  },
} as const;

export function ItemGridSkeleton({ label }: { label: string }) {
  return (
    <Box role="status" aria-label={label} aria-busy="true" sx={GRID}>
      {[0, 1, 2, 3].map((key) => (
        <Box key={key}>
          <Skeleton variant="rounded" sx={{ aspectRatio: '1', height: 'auto' }} />
          <Skeleton width="70%" />
        </Box>
      ))}
    </Box>
  );
}

interface ItemGridProps {
  items: ItemSummary[];
  label: string;
  /** Shows the "Show on my profile" switch (the owner's holdings). */
  onVisibility?: (item: ItemSummary, visible: boolean) => void;
  busyId?: string | null;
}

export function ItemGrid({ items, label, onVisibility, busyId }: ItemGridProps) {
  const { t } = useTranslation();
  return (
    <Box component="ul" aria-label={label} sx={GRID}>
      {items.map((item) => (
        <Box component="li" key={item.id} sx={{ minWidth: 0 }}>
          <Card
            variant="outlined"
            sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
          >
            <CardActionArea
              component={RouterLink}
              to={`/market/product/${encodeURIComponent(item.id)}`}
            >
              <CardMedia
                component="img"
                image={item.image.thumb || item.image.url}
                alt=""
                sx={{ aspectRatio: '1', objectFit: 'cover' }}
              />
              <CardContent sx={{ pb: 1 }}>
                <Typography component="h3" variant="subtitle1" noWrap sx={{ fontWeight: 600 }}>
                  {item.title}
                </Typography>
                <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
                  <Chip size="small" label={t(`items.types.${item.product_type}`)} />
                  {item.owned !== null ? (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={t('items.card.owned', { owned: item.owned, total: item.copies })}
                    />
                  ) : (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={t('items.detail.copies', { count: item.copies })}
                    />
                  )}
                </Box>
              </CardContent>
            </CardActionArea>
            {onVisibility && item.visible !== null ? (
              <Box sx={{ px: 2, pb: 1, mt: 'auto' }}>
                <FormControlLabel
                  control={
                    <Switch
                      size="small"
                      checked={item.visible}
                      disabled={busyId === item.id}
                      onChange={(event) => onVisibility(item, event.target.checked)}
                      slotProps={{
                        input: {
                          'aria-label': t('items.card.visibilityOf', { title: item.title }),
                        },
                      }}
                    />
                  }
                  label={t('items.card.visibility')}
                  slotProps={{ typography: { variant: 'body2' } }}
                />
              </Box>
            ) : null}
          </Card>
        </Box>
      ))}
    </Box>
  );
}

/** "Load more" under a paged item list, shown while another page exists. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  const { t } = useTranslation();
  if (!query.hasNextPage) return null;
  return (
    <Box sx={{ textAlign: 'center', mt: 3 }}>
      <Button onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {t('items.loadMore')}
      </Button>
    </Box>
  );
}
