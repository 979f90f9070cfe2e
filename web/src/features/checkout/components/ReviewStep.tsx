import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { Order } from '@shared/schemas/orders';
import { countryName } from '../../../lib/countries';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import checkoutTexts from '../../../locales/en.checkout.json';
import { OrderAmounts, SplitList } from './CheckoutParts';
import { Section } from './CopiesStep';

addTranslations({ checkout: checkoutTexts });

/** Where the order goes: the delivery address, the pick-up place, or nothing. */
export function DeliverySummary({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  if (order.delivery === 'delivery' && order.postaladdress) {
    const address = order.postaladdress;
    return (
      <Box>
        <Typography variant="body2" color="text.secondary">
          {t('checkout.review.deliverTo')}
        </Typography>
        <Typography sx={{ fontWeight: 600 }}>{address.fullname}</Typography>
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          {[address.line1, address.line2].filter(Boolean).join(', ')}
        </Typography>
        <Typography>
          {`${address.postalcode} ${address.city}, ${address.stateprovince}, ${countryName(address.country, i18n.language)}`}
        </Typography>
      </Box>
    );
  }
  if (order.delivery === 'pickup' && order.pickup) {
    const place = order.pickup;
    return (
      <Box>
        <Typography variant="body2" color="text.secondary">
          {t('checkout.review.pickupAt')}
        </Typography>
        <Typography>
          {`${place.line1}, ${place.postalcode} ${place.city}, ${countryName(place.country, i18n.language)}`}
        </Typography>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-line' }}>
          {t('checkout.shipping.instructions', { instructions: place.instructions })}
        </Typography>
      </Box>
    );
  }
  return (
    <Typography variant="body2" color="text.secondary">
      {t('checkout.shipping.noShipping')}
    </Typography>
  );
}

/**
 * Step 2, review (spec 000 §2): the price × copies and the total (a deposit order: the deposit
 * now and the balance later), where it goes, and the split of the payment.
 */
export function ReviewStep({
  order,
  disabled,
  onContinue,
}: {
  order: Order;
  disabled: boolean;
  onContinue: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Section title={t('checkout.review.title')}>
        <OrderAmounts order={order} />
        <Divider />
        <DeliverySummary order={order} />
        <Divider />
        <SplitList order={order} />
      </Section>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          variant="contained"
          size="large"
          onClick={onContinue}
          disabled={disabled}
          sx={{ width: { xs: '100%', sm: 'auto' } }}
        >
          {t('checkout.review.continue')}
        </Button>
      </Box>
    </Box>
  );
}
