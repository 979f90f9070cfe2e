import ChevronLeftRoundedIcon from '@mui/icons-material/ChevronLeftRounded';
import ChevronRightRoundedIcon from '@mui/icons-material/ChevronRightRounded';
import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import CloudOffRoundedIcon from '@mui/icons-material/CloudOffRounded';
import DownloadRoundedIcon from '@mui/icons-material/DownloadRounded';
import VerifiedRoundedIcon from '@mui/icons-material/VerifiedRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@shared/dates';
import type { CurrencyCode } from '@shared/money';
import type { Copy, ItemDetail, ItemImage } from '@shared/schemas/items';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import { Link as RouterLink, useParams } from 'react-router';
import { Fact } from '../../../components/FactsGrid';
import { RetryButton, StatusMessage } from '../../../components/StatusMessage';
import { ApiError } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { useErrorText } from '../../../lib/errors';
import { usePageMeta } from '../../../lib/head';
import {
  callerId,
  fetchCopies,
  fetchFileLink,
  fetchHistory,
  fetchItem,
  itemKeys,
} from '../api/items';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * What the page composed around the item (app/ItemRoute.tsx) shows: its offerings, and the actions
 * of its owners. `refresh` reads the item again (its copies changed).
 */
export interface ItemPageSlots {
  renderOfferings?: (item: ItemDetail, refresh: () => void) => ReactNode;
  renderOwnerActions?: (item: ItemDetail) => ReactNode;
}

/** /market/product/:id: an item (spec 000 §2 item detail); only `available` so far. */
export function ItemPage({ renderOfferings, renderOwnerActions }: ItemPageSlots = {}) {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { user, status } = useAuth();
  const caller = callerId(user?.id);
  const query = useQuery({
    queryKey: itemKeys.detail(id, caller),
    queryFn: ({ signal }) => fetchItem(caller, id, signal),
    enabled: status !== 'loading',
  });
  if (query.isPending) {
    return (
      <Container maxWidth="lg" sx={{ py: 4 }} role="status" aria-label={t('items.detail.loading')}>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <Skeleton variant="rounded" sx={{ aspectRatio: '1', height: 'auto' }} />
          <Box>
            <Skeleton width="70%" height={48} />
            <Skeleton width="40%" />
            <Skeleton variant="rounded" height={160} sx={{ mt: 2 }} />
          </Box>
        </Box>
      </Container>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Container maxWidth="md" sx={{ py: 6 }}>
        <StatusMessage
          role="alert"
          tone="error"
          icon={<CloudOffRoundedIcon />}
          title={notFound ? t('items.detail.notFound') : t('items.detail.error')}
          body={notFound ? undefined : errorText(query.error)}
          action={
            notFound ? undefined : (
              <RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />
            )
          }
        />
      </Container>
    );
  }
  return (
    <ItemView
      item={query.data}
      caller={caller}
      offerings={renderOfferings?.(query.data, () => void query.refetch())}
      ownerActions={renderOwnerActions?.(query.data)}
    />
  );
}

function ItemView({
  item,
  caller,
  offerings,
  ownerActions,
}: {
  item: ItemDetail;
  caller: string;
  offerings?: ReactNode;
  ownerActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  usePageMeta({
    title: t('meta.titleTemplate', { page: item.title, app: t('app.name') }),
    description: item.description,
    // The 400 px rendition: the social preview's size (DESIGN §8).
    image: item.image.thumb,
  });
  const download = useMutation({
    mutationFn: () => fetchFileLink(caller, item.id),
    onSuccess: (link) => {
      window.open(link.url, '_blank', 'noopener');
    },
  });
  const images = item.images.length > 0 ? item.images : [item.image];
  return (
    <Container maxWidth="lg" component="article" sx={{ py: { xs: 3, sm: 5 } }}>
      <Box
        sx={{
          display: 'grid',
          gap: { xs: 3, md: 5 },
          gridTemplateColumns: { xs: 'minmax(0,1fr)', md: 'minmax(0,1fr) minmax(0,1fr)' },
        }}
      >
        <Gallery images={images} title={item.title} />
        <Box sx={{ display: 'grid', gap: 2, alignContent: 'start' }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Chip color="success" label={t(`items.status.${item.status}`)} />
            <Chip variant="outlined" label={t(`items.types.${item.product_type}`)} />
          </Box>
          <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Typography>
          <Typography color="text.secondary">
            {t('items.detail.by')}{' '}
            <Link component={RouterLink} to={`/${item.issuer_nick}`}>
              @{item.issuer_nick}
            </Link>
            {' · '}
            {t('items.detail.copies', { count: item.copies })}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {item.description}
          </Typography>
          {item.can_download && item.file ? (
            <Box>
              <Button
                variant="contained"
                startIcon={<DownloadRoundedIcon />}
                onClick={() => download.mutate()}
                disabled={download.isPending}
              >
                {t('items.detail.download', { name: item.file.name })}
              </Button>
              {download.isError ? (
                <Alert severity="error" sx={{ mt: 1 }}>
                  {errorText(download.error)}
                </Alert>
              ) : null}
            </Box>
          ) : null}
          {ownerActions}
          <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="item-facts">
            <Typography id="item-facts" variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('items.detail.details')}
            </Typography>
            <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1, '& dd': { m: 0 } }}>
              <Fact term={t('items.detail.issuer')}>
                {item.issuer.organisation} ({item.issuer.legal_form}, {item.issuer.country})
              </Fact>
              <Fact term={t('items.detail.contact')}>{item.contact_email}</Fact>
              <Fact term={t('items.detail.shipping')}>{shippingSummary(item, t)}</Fact>
              <Fact term={t('items.detail.terms')}>
                {item.legal_terms === 'None' ? t('items.detail.noTerms') : item.legal_terms}
              </Fact>
              <Fact term={t('items.detail.resale')}>
                {item.transferable ? t('items.detail.resaleYes') : t('items.detail.resaleNo')}
                {item.royalty !== null
                  ? ` · ${t('items.detail.royalty', { value: item.royalty })}`
                  : ''}
              </Fact>
              {item.ticket ? (
                <Fact term={t('items.detail.ticket')}>
                  {t('items.detail.ticketInfo', {
                    redeemer: item.ticket.redeemer,
                    date: formatDateTime(item.ticket.expires_at, { timeZone: viewerZone() }),
                  })}
                </Fact>
              ) : null}
            </Box>
          </Paper>
        </Box>
      </Box>
      {offerings}
      <CopiesTable item={item} caller={caller} />
    </Container>
  );
}

function shippingSummary(item: ItemDetail, t: ReturnType<typeof useTranslation>['t']): string {
  const shipping = item.shipping;
  if (!shipping) return t('items.detail.noShipping');
  if (shipping.mode === 'delivery') {
    return t('items.detail.deliveryTo', { countries: shipping.countries.join(', ') });
  }
  const { address } = shipping;
  return t('items.detail.pickupAt', {
    address: `${address.line1}, ${address.postalcode} ${address.city}, ${address.country}`,
  });
}

function Gallery({ images, title }: { images: ItemImage[]; title: string }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(0);
  const [viewer, setViewer] = useState<number | null>(null);
  const main = images[selected] ?? images[0];
  const step = (by: number) =>
    setViewer((index) => (index === null ? null : (index + by + images.length) % images.length));
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') step(1);
    if (event.key === 'ArrowLeft') step(-1);
  };
  const shown = viewer === null ? undefined : images[viewer];
  return (
    <Box>
      {main ? (
        <Box
          component="button"
          type="button"
          onClick={() => setViewer(selected)}
          aria-label={t('items.gallery.open', { title })}
          sx={{ p: 0, border: 0, width: '100%', cursor: 'zoom-in', bgcolor: 'transparent' }}
        >
          <Box
            component="img"
            src={main.url}
            alt={title}
            sx={{ width: '100%', aspectRatio: '1', objectFit: 'cover', borderRadius: 3 }}
          />
        </Box>
      ) : null}
      {images.length > 1 ? (
        <Box
          component="ul"
          aria-label={t('items.gallery.thumbnails')}
          sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'flex', gap: 1, overflowX: 'auto' }}
        >
          {images.map((image, index) => (
            <li key={image.url}>
              <Box
                component="button"
                type="button"
                aria-label={t('items.gallery.show', { index: index + 1 })}
                aria-current={index === selected ? 'true' : undefined}
                onClick={() => setSelected(index)}
                sx={{
                  p: 0,
                  border: 2,
                  borderColor: index === selected ? 'primary.main' : 'transparent',
                  borderRadius: 1.5,
                  bgcolor: 'transparent',
                  cursor: 'pointer',
                }}
              >
                <Box
                  component="img"
                  src={image.thumb}
                  alt=""
                  sx={{
                    width: 64,
                    height: 64,
                    objectFit: 'cover',
                    borderRadius: 1,
                    display: 'block',
                  }}
                />
              </Box>
            </li>
          ))}
        </Box>
      ) : null}
      <Dialog
        open={viewer !== null}
        onClose={() => setViewer(null)}
        onKeyDown={onKey}
        maxWidth="lg"
        aria-labelledby="viewer-title"
      >
        <DialogTitle id="viewer-title" sx={{ pr: 6 }}>
          {t('items.gallery.viewer', { index: (viewer ?? 0) + 1, total: images.length })}
          <IconButton
            onClick={() => setViewer(null)}
            aria-label={t('common.close')}
            sx={{ position: 'absolute', right: 8, top: 8 }}
          >
            <CloseRoundedIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          {images.length > 1 ? (
            <IconButton onClick={() => step(-1)} aria-label={t('items.gallery.previous')}>
              <ChevronLeftRoundedIcon />
            </IconButton>
          ) : null}
          {shown ? (
            <Box
              component="img"
              src={shown.url}
              alt={title}
              sx={{
                maxWidth: '100%',
                maxHeight: '75vh',
                minWidth: 0,
                flex: 1,
                objectFit: 'contain',
              }}
            />
          ) : null}
          {images.length > 1 ? (
            <IconButton onClick={() => step(1)} aria-label={t('items.gallery.next')}>
              <ChevronRightRoundedIcon />
            </IconButton>
          ) : null}
        </DialogContent>
      </Dialog>
    </Box>
  );
}

/**
 * The Owner since column from 768 px; on a phone the date shows under the owner, so the table
 * fits a 375 px screen without scrolling sideways.
 */
const sinceColumn = { display: { xs: 'none', sm: 'table-cell' } } as const;

function CopiesTable({ item, caller }: { item: ItemDetail; caller: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [copies, setCopies] = useState<Copy[]>(item.copies_page.items);
  const [cursor, setCursor] = useState<string | null>(item.copies_page.nextCursor);
  const [history, setHistory] = useState<Copy | null>(null);
  const more = useMutation({
    mutationFn: (next: string) => fetchCopies(caller, item.id, next),
    onSuccess: (page) => {
      setCopies((list) => [...list, ...page.items]);
      setCursor(page.nextCursor);
    },
  });
  return (
    <Box component="section" aria-labelledby="copies-title" sx={{ mt: { xs: 4, sm: 6 } }}>
      <Typography id="copies-title" variant="h5" component="h2" sx={{ mb: 2 }}>
        {t('items.copies.title')}
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table
          size="small"
          aria-labelledby="copies-title"
          // Narrower cell padding on phones leaves the owner's nick room for one line.
          sx={{ '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } }}
        >
          <TableHead>
            <TableRow>
              <TableCell>{t('items.copies.serial')}</TableCell>
              <TableCell>{t('items.copies.owner')}</TableCell>
              <TableCell sx={sinceColumn}>{t('items.copies.since')}</TableCell>
              <TableCell align="right">{t('items.copies.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {copies.map((copy) => (
              <TableRow key={copy.nftuniqueid}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {t('items.copies.serialValue', { index: copy.index, total: item.copies })}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  <Link component={RouterLink} to={`/${copy.owner_nick}`}>
                    @{copy.owner_nick}
                  </Link>
                  {/* On phones the date goes under the owner instead of its own column. */}
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.25, whiteSpace: 'nowrap' }}
                  >
                    {formatDateTime(copy.owner_since, { timeZone: viewerZone() })}
                  </Typography>
                </TableCell>
                <TableCell sx={sinceColumn}>
                  {formatDateTime(copy.owner_since, { timeZone: viewerZone() })}
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    onClick={() => setHistory(copy)}
                    aria-label={t('items.copies.historyOf', { index: copy.index })}
                  >
                    {t('items.copies.history')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {more.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {errorText(more.error)}
        </Alert>
      ) : null}
      {cursor ? (
        <Box sx={{ mt: 2, textAlign: 'center' }}>
          <Button onClick={() => more.mutate(cursor)} disabled={more.isPending}>
            {t('items.loadMore')}
          </Button>
        </Box>
      ) : null}
      {history ? (
        <HistoryDialog copy={history} caller={caller} onClose={() => setHistory(null)} />
      ) : null}
    </Box>
  );
}

function HistoryDialog({
  copy,
  caller,
  onClose,
}: {
  copy: Copy;
  caller: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const query = useQuery({
    queryKey: itemKeys.history(copy.nftuniqueid),
    queryFn: ({ signal }) => fetchHistory(caller, copy.nftuniqueid, signal),
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby="history-title" fullWidth maxWidth="sm">
      <DialogTitle id="history-title" sx={{ pr: 6 }}>
        {t('items.history.title', { index: copy.index })}
        <IconButton
          onClick={onClose}
          aria-label={t('common.close')}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseRoundedIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {query.isPending ? (
          <Box role="status" aria-label={t('items.history.loading')}>
            <Skeleton height={48} />
            <Skeleton height={48} />
          </Box>
        ) : query.isError ? (
          <Alert
            severity="error"
            action={<RetryButton onClick={() => void query.refetch()} busy={query.isFetching} />}
          >
            {errorText(query.error)}
          </Alert>
        ) : (
          <>
            {query.data.verified ? (
              <Chip
                color="success"
                icon={<VerifiedRoundedIcon />}
                label={t('items.history.verified')}
                sx={{ mb: 2 }}
              />
            ) : (
              <Chip color="warning" label={t('items.history.unverified')} sx={{ mb: 2 }} />
            )}
            <Box component="ol" aria-label={t('items.history.records')} sx={{ m: 0, pl: 2.5 }}>
              {query.data.records.map((record) => (
                <Box component="li" key={record.seq} sx={{ mb: 1.5 }}>
                  <Typography sx={{ fontWeight: 600 }}>
                    {t(`items.history.event.${record.event}`)}
                  </Typography>
                  <Typography variant="body2">
                    {record.from_nick ? `@${record.from_nick} → ` : ''}@{record.to_nick}
                    {record.price
                      ? ` · ${priceText(record.price.amount, record.price.currency as CurrencyCode)}`
                      : ''}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {formatDateTime(record.at, { timeZone: viewerZone() })} ·{' '}
                    <Box component="code" title={record.hash}>
                      {record.hash.slice(0, 10)}…
                    </Box>
                  </Typography>
                </Box>
              ))}
            </Box>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
