import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CATEGORIES, OFFER_FILTERS } from '@shared/schemas/offerings';
import { useId } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import {
  hasFilters,
  NO_FILTERS,
  TYPE_FILTERS,
  type CategoryFilter,
  type MarketFilters,
  type OfferFilter,
} from '../filters';
import marketTexts from '../../../locales/en.market.json';

addTranslations({ market: marketTexts });

/**
 * The market's filters (spec 000 §2): type (multiple choice chips, "Any" clears them), category
 * and offer (selects), and Clear filters while any is set.
 */
export function MarketFiltersBar({
  filters,
  onChange,
}: {
  filters: MarketFilters;
  onChange: (next: MarketFilters) => void;
}) {
  const { t } = useTranslation();
  const typeLabel = useId();
  const toggle = (type: (typeof TYPE_FILTERS)[number]) =>
    onChange({
      ...filters,
      types: filters.types.includes(type)
        ? filters.types.filter((value) => value !== type)
        : TYPE_FILTERS.filter((value) => value === type || filters.types.includes(value)),
    });
  return (
    <Box
      component="section"
      aria-label={t('market.filters.label')}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: { xs: 'stretch', md: 'center' },
        flexDirection: { xs: 'column', md: 'row' },
        gap: 2,
        mb: 3,
      }}
    >
      <Box
        role="group"
        aria-labelledby={typeLabel}
        sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
      >
        <Typography
          id={typeLabel}
          component="span"
          variant="body2"
          color="text.secondary"
          sx={{ fontWeight: 600, mr: 0.5 }}
        >
          {t('market.filters.type')}
        </Typography>
        <Chip
          label={t('market.filters.any')}
          clickable
          aria-pressed={filters.types.length === 0}
          color={filters.types.length === 0 ? 'primary' : 'default'}
          variant={filters.types.length === 0 ? 'filled' : 'outlined'}
          onClick={() => onChange({ ...filters, types: [] })}
        />
        {TYPE_FILTERS.map((type) => {
          const selected = filters.types.includes(type);
          return (
            <Chip
              key={type}
              label={t(`market.filters.types.${type}`)}
              clickable
              aria-pressed={selected}
              color={selected ? 'primary' : 'default'}
              variant={selected ? 'filled' : 'outlined'}
              onClick={() => toggle(type)}
            />
          );
        })}
      </Box>
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(2, 180px)' },
          gap: 1.5,
          ml: { md: 'auto' },
        }}
      >
        <TextField
          select
          size="small"
          label={t('market.filters.category')}
          value={filters.category}
          onChange={(event) =>
            onChange({ ...filters, category: event.target.value as CategoryFilter })
          }
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="any">{t('market.filters.any')}</option>
          {CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {t(`market.filters.categories.${category}`)}
            </option>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('market.filters.offer')}
          value={filters.offer}
          onChange={(event) => onChange({ ...filters, offer: event.target.value as OfferFilter })}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          {OFFER_FILTERS.map((offer) => (
            <option key={offer} value={offer}>
              {offer === 'any' ? t('market.filters.any') : t(`market.filters.offers.${offer}`)}
            </option>
          ))}
        </TextField>
      </Box>
      {hasFilters(filters) ? (
        <Button onClick={() => onChange(NO_FILTERS)} sx={{ alignSelf: { xs: 'flex-start' } }}>
          {t('market.filters.clear')}
        </Button>
      ) : null}
    </Box>
  );
}

/** A status filter (My Offerings, My Bids): a select whose choices are `statuses`. */
export function StatusFilter<S extends string>({
  statuses,
  value,
  onChange,
}: {
  statuses: readonly S[];
  value: S;
  onChange: (next: S) => void;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t('market.filters.status')}
      value={value}
      onChange={(event) => onChange(event.target.value as S)}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 180, mb: 3 }}
    >
      {statuses.map((status) => (
        <option key={status} value={status}>
          {status === 'any'
            ? t('market.filters.any')
            : t(`market.filters.statuses.${status as 'active' | 'sold' | 'closed'}`)}
        </option>
      ))}
    </TextField>
  );
}
