import { createOfferingBodySchema, type ListingContract } from '../../../shared/schemas/offerings';
import { createOffering, getListingStatus } from '../create-offering';
import { validateOffering } from '../manage';
import { offeringsDeps } from '../offerings.deps';

/**
 * For the dev seed's demo market (infra/local/seed-market.ts): lists as the seller would (the
 * create call's use case, the listing workflow on the twin's runner) and has support approve it,
 * then waits for the publication. The twin's environment must be in process.env. Answers the
 * offering's id.
 */
export async function listApprovedForDemo(
  sellerId: string,
  contract: ListingContract,
  idempotencyKey: string,
): Promise<string> {
  const deps = offeringsDeps();
  const { offeringId } = await createOffering(
    deps,
    sellerId,
    // What the call's body schema makes of it (the terms normalised), as the handler passes it.
    createOfferingBodySchema.parse({ offering: contract }).offering,
    idempotencyKey,
    new Date(),
  );
  await waitFor(`listing ${offeringId}`, async () => {
    const progress = await getListingStatus(deps, sellerId, offeringId);
    if (progress.step === 'error') {
      throw new Error(`listing ${offeringId} stopped: ${progress.error ?? 'no error code'}`);
    }
    return progress.step === 'done';
  });
  await validateOffering(deps, offeringId, { decision: 'approve' }, new Date());
  await waitFor(
    `publication of ${offeringId}`,
    async () => (await deps.repo.get(offeringId))?.status === 'validated',
  );
  return offeringId;
}

async function waitFor(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
