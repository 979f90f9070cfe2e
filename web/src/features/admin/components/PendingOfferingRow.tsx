import CheckRoundedIcon from '@mui/icons-material/CheckRounded';
import CloseRoundedIcon from '@mui/icons-material/CloseRounded';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import { NO_TERMS } from '@shared/schemas/items';
import type { PendingOffering } from '@shared/schemas/offerings';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { Fact, FactsGrid } from '../../../components/FactsGrid';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import adminTexts from '../../../locales/en.admin.json';

addTranslations({ admin: adminTexts });

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * One offering waiting for support (spec 000 §4 validation): what the seller lists and what the
 * item says (images, title, description, legal terms), and the two decisions.
 */
export function PendingOfferingRow({
  offering,
  error,
  onApprove,
  onReject,
}: {
  offering: PendingOffering;
  /** Why the last decision failed (the row came back). */
  error: string | null;
  onApprove: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const zone = viewerZone();
  const { item } = offering;
  const images = item.images.length > 0 ? item.images : [item.image];
  const price = (amount: number) => priceText(amount, offering.currency);
  const terms = (value: string) =>
    value === NO_TERMS ? t('admin.offerings.facts.noTerms') : value;
  return (
    <Paper
      component="article"
      variant="outlined"
      aria-labelledby={titleId}
      sx={{
        p: { xs: 2, sm: 3 },
        display: 'grid',
        gap: { xs: 2, md: 3 },
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '220px minmax(0, 1fr)' },
      }}
    >
      <Box
        component="ul"
        aria-label={t('admin.offerings.images', { title: item.title })}
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: 1,
          gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
          alignContent: 'start',
          '& > li:first-of-type': { gridColumn: '1 / -1' },
        }}
      >
        {images.map((image, index) => (
          <li key={image.url}>
            <Box
              component="a"
              href={image.url}
              target="_blank"
              rel="noopener"
              sx={{ display: 'block' }}
            >
              <Box
                component="img"
                src={index === 0 ? image.url : image.thumb}
                alt={`${item.title} (${index + 1}/${images.length})`}
                loading="lazy"
                sx={{
                  width: '100%',
                  aspectRatio: '1',
                  objectFit: 'cover',
                  borderRadius: index === 0 ? 2 : 1,
                  display: 'block',
                }}
              />
            </Box>
          </li>
        ))}
      </Box>
      <Box sx={{ minWidth: 0, display: 'grid', gap: 1.5, alignContent: 'start' }}>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Chip size="small" color="primary" label={t(`admin.offerings.types.${offering.type}`)} />
          <Chip
            size="small"
            variant="outlined"
            label={t(`admin.offerings.productTypes.${item.product_type}`)}
          />
        </Box>
        <Box>
          <Typography id={titleId} variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('admin.offerings.by')}{' '}
            <Link component={RouterLink} to={`/${offering.seller.nick}`}>
              @{offering.seller.nick}
            </Link>
            {' · '}
            {t('admin.offerings.submitted', {
              date: formatDateTime(offering.submitted_at, { timeZone: zone }),
            })}
          </Typography>
        </Box>
        <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {item.description}
        </Typography>
        <FactsGrid>
          <Fact term={t('admin.offerings.facts.type')}>
            {t(`admin.offerings.types.${offering.type}`)}
          </Fact>
          <Fact
            term={
              offering.type === 'auction'
                ? t('admin.offerings.facts.minimumBid')
                : t('admin.offerings.facts.price')
            }
          >
            {price(offering.price)}
          </Fact>
          {offering.buy_price !== null ? (
            <Fact term={t('admin.offerings.facts.buyPrice')}>{price(offering.buy_price)}</Fact>
          ) : null}
          <Fact term={t('admin.offerings.facts.payment')}>
            {offering.payment_mode === 'deposit' && offering.deposit !== null
              ? t('admin.offerings.facts.deposit', { amount: price(offering.deposit) })
              : t('admin.offerings.facts.fullPrice')}
          </Fact>
          <Fact term={t('admin.offerings.facts.copies')}>
            {t('admin.offerings.facts.copiesValue', {
              copies: offering.copies,
              total: item.copies,
            })}
          </Fact>
          <Fact term={t('admin.offerings.facts.access')}>
            {offering.access === 'private'
              ? t('admin.offerings.facts.private')
              : t('admin.offerings.facts.public')}
          </Fact>
          <Fact term={t('admin.offerings.facts.runs')} wide>
            {t('admin.offerings.facts.runsValue', {
              start: formatDateTime(offering.start_at, { timeZone: zone }),
              end: formatDateTime(offering.end_at, { timeZone: zone }),
            })}
          </Fact>
          <Fact term={t('admin.offerings.facts.categories')} wide>
            <Box component="span" sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              {offering.categories.map((category) => (
                <Chip
                  key={category}
                  component="span"
                  size="small"
                  label={t(`admin.offerings.categories.${category}`)}
                />
              ))}
            </Box>
          </Fact>
          <Fact term={t('admin.offerings.facts.legalTerms')} wide>
            {terms(item.legal_terms)}
          </Fact>
          <Fact term={t('admin.offerings.facts.terms')} wide>
            {terms(offering.terms)}
          </Fact>
          <Fact term={t('admin.offerings.facts.notes')} wide>
            {offering.notes.trim() === '' ? t('admin.offerings.facts.noNotes') : offering.notes}
          </Fact>
        </FactsGrid>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            color="success"
            startIcon={<CheckRoundedIcon />}
            onClick={onApprove}
            aria-label={t('admin.offerings.approveLabel', { title: item.title })}
          >
            {t('admin.offerings.approve')}
          </Button>
          <Button
            variant="outlined"
            color="error"
            startIcon={<CloseRoundedIcon />}
            onClick={onReject}
            aria-label={t('admin.offerings.rejectLabel', { title: item.title })}
          >
            {t('admin.offerings.reject')}
          </Button>
        </Box>
      </Box>
    </Paper>
  );
}
