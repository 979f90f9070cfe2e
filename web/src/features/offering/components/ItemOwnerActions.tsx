import SellRoundedIcon from '@mui/icons-material/SellRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ItemDetail } from '@shared/schemas/items';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../../../lib/auth';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import offeringTexts from '../../../locales/en.offering.json';

addTranslations({ offering: offeringTexts });

/** The list form of an item (spec route /my-tokens/list-form/:id). */
export const listFormPath = (itemId: string) =>
  `/my-tokens/list-form/${encodeURIComponent(itemId)}`;

/**
 * Whether the viewer holds a copy of the item free to list: one of the copies shown is theirs and
 * available; or they hold a copy (may download) somewhere in the copies not shown yet. The list
 * form checks the free copies itself (listing-context).
 */
export function holdsFreeCopy(
  item: Pick<ItemDetail, 'copies_page' | 'can_download'>,
  userId: string,
): boolean {
  const { items, nextCursor } = item.copies_page;
  if (items.some((copy) => copy.owner_id === userId && copy.status === 'available')) return true;
  return nextCursor !== null && item.can_download;
}

/** 'List' for an owner of the item who holds a free copy (spec 000 §2 list item). */
export function ItemOwnerActions({
  item,
}: {
  item: Pick<ItemDetail, 'id' | 'copies_page' | 'can_download'>;
}) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const hintId = useId();
  if (!user || !holdsFreeCopy(item, user.id)) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
      <Button
        component={RouterLink}
        to={listFormPath(item.id)}
        variant="contained"
        startIcon={<SellRoundedIcon />}
        aria-describedby={hintId}
      >
        {t('offering.owner.list')}
      </Button>
      <Typography id={hintId} variant="body2" color="text.secondary">
        {t('offering.owner.listHint')}
      </Typography>
    </Box>
  );
}
