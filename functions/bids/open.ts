import type { OfferingRecord } from '../offerings/index';
import { lotOfOffering } from './place';
import type { BidsDeps } from './ports';

/**
 * An auction was published (the listing machine's `auction_open` effect): its lot is written (once:
 * a replay finds it) and its auction-close workflow started (once per offering: the execution name
 * is the offering's), which sends the reminders and closes it at the end.
 */
export async function openAuction(
  deps: Pick<BidsDeps, 'repo' | 'imagesBaseUrl' | 'softCloseMs' | 'startClose' | 'shippingOf'>,
  offering: OfferingRecord,
): Promise<void> {
  const lot = await lotOfOffering(deps, offering);
  await deps.repo.saveLot({ ...lot, version: 1 }, 0);
  await deps.startClose(offering.id, 'open');
}
