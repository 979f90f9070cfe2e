import EventRoundedIcon from '@mui/icons-material/EventRounded';
import GavelRoundedIcon from '@mui/icons-material/GavelRounded';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatDateTime } from '@shared/dates';
import type { Order, OrderDispute } from '@shared/schemas/orders';
import { Fact, FactsGrid } from '../../../components/FactsGrid';
import { useDisputeText } from '../../../lib/disputes';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { priceText } from '../../../lib/offeringFormat';
import ordersTexts from '../../../locales/en.orders.json';
import { OrderSection, viewerZone } from './OrderParts';

addTranslations({ orders: ordersTexts });

/** How the news reads for each side: a lost dispute is the seller's loss, not the buyer's. */
const SEVERITY: Record<Order['role'], Record<OrderDispute['status'], AlertColor>> = {
  seller: { open: 'warning', won: 'success', lost: 'error' },
  buyer: { open: 'info', won: 'info', lost: 'info' },
};

/**
 * The dispute of the order's payment (a chargeback), as its buyer or seller sees it: the status in
 * words, the bank's reason, the amount, the dates, and what it means for the viewer. The seller of
 * an open one also reads by when support answers the bank (the evidence deadline).
 */
export function OrderDisputeSection({
  dispute,
  role,
}: {
  dispute: OrderDispute;
  role: Order['role'];
}) {
  const { t } = useTranslation();
  const words = useDisputeText();
  const zone = viewerZone();
  const date = (value: string) => formatDateTime(value, { timeZone: zone });
  const open = dispute.status === 'open';
  return (
    <OrderSection title={t('orders.dispute.title')}>
      <FactsGrid>
        <Fact term={t('orders.dispute.status')}>{words.status(dispute.status)}</Fact>
        <Fact term={t('orders.dispute.reason')}>{words.reason(dispute.reason)}</Fact>
        <Fact term={t('orders.dispute.amount')}>{priceText(dispute.amount, dispute.currency)}</Fact>
        <Fact term={t('orders.dispute.opened')}>{date(dispute.opened_at)}</Fact>
        {dispute.closed_at !== null ? (
          <Fact term={t('orders.dispute.closed')}>{date(dispute.closed_at)}</Fact>
        ) : null}
      </FactsGrid>
      {/* A note, not a live alert: it is part of the order as the page opens. */}
      <Alert
        severity={SEVERITY[role][dispute.status]}
        role="note"
        icon={open ? <GavelRoundedIcon /> : undefined}
      >
        {t(`orders.dispute.${role}.${dispute.status}`)}
      </Alert>
      {open && role === 'seller' && dispute.evidence_due_by !== null ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <EventRoundedIcon fontSize="small" color="action" aria-hidden />
          <Typography variant="body2">
            {t('orders.dispute.deadline', { date: date(dispute.evidence_due_by) })}
          </Typography>
        </Box>
      ) : null}
    </OrderSection>
  );
}
