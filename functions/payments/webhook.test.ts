import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/errors';
import type { PaymentsDeps } from './payments';
import type { EventClaim, PaymentsRepo, PaymentsRecord } from './payments.repo';
import { EVENT_LEASE_MS } from './payments.repo';
import { handleWebhook } from './webhook';

/**
 * The webhook's once-only handling with a fake repo (the lease, a failed handling given up and
 * redone, a concurrent delivery refused with 409) and the real SDK's signature check; the
 * integration test runs the same against the twin and DynamoDB Local.
 */
const SECRET = 'whsec_unit';
const CONNECT_SECRET = 'whsec_connect_unit';
const sdk = new Stripe('sk_test_unit');
const NOW = new Date('2026-11-24T12:00:00Z');

function fakeRepo(): PaymentsRepo & { events: Map<string, { state: string; lease: number }> } {
  const events = new Map<string, { state: string; lease: number }>();
  const records = new Map<string, PaymentsRecord>([
    ['u1', { user_id: 'u1', stripe_account_id: 'acct_1', updated_at: NOW.toISOString() }],
  ]);
  return {
    events,
    getRecord: async (userId) => records.get(userId),
    keepAccount: async (_u, accountId) => accountId,
    keepCustomer: async (_u, customerId) => customerId,
    async claimEvent(eventId, _type, now): Promise<EventClaim> {
      const found = events.get(eventId);
      if (found?.state === 'done') return 'done';
      if (found !== undefined && found.lease >= now.getTime()) return 'busy';
      events.set(eventId, { state: 'processing', lease: now.getTime() + EVENT_LEASE_MS });
      return 'claimed';
    },
    async finishEvent(eventId) {
      events.set(eventId, { state: 'done', lease: 0 });
    },
    async releaseEvent(eventId) {
      events.delete(eventId);
    },
  };
}

function setup(options: { failFirst?: boolean } = {}) {
  const repo = fakeRepo();
  const statuses: string[] = [];
  const published: string[] = [];
  let retrievals = 0;
  const stripe = {
    webhooks: sdk.webhooks,
    accounts: {
      async retrieve(id: string) {
        retrievals += 1;
        if (options.failFirst === true && retrievals === 1) throw new Error('network down');
        return {
          id,
          metadata: { user_id: 'u1' },
          details_submitted: true,
          charges_enabled: true,
          payouts_enabled: true,
          requirements: { currently_due: [], pending_verification: [] },
        };
      },
    },
  } as unknown as Stripe;
  let current = 'continue_onboarding';
  const notified: string[] = [];
  const orderEvents: string[] = [];
  const deps: PaymentsDeps = {
    stripe: async () => stripe,
    keys: async () => ({
      secretKey: 'sk_test_unit',
      webhookSecret: SECRET,
      connectWebhookSecret: CONNECT_SECRET,
    }),
    repo,
    sellers: {
      async setSellerStatus(_userId, status) {
        statuses.push(status.onboarding_status);
        const changed = current !== status.onboarding_status;
        current = status.onboarding_status;
        return { changed };
      },
    },
    userOf: async () => ({ email: 'a@example.com', user_option: 'individual' }),
    storedStatusOf: async () => current,
    notify: async (input) => {
      notified.push(`${input.activity} ${input.eventKey}`);
    },
    publish: async (_userId, message) => {
      published.push(message.type);
    },
    webOrigin: 'http://localhost:3000',
    orders: {
      paymentIntentChanged: async (id) => {
        orderEvents.push(`payment ${id}`);
      },
      checkoutCompleted: async (id) => {
        orderEvents.push(`checkout ${id}`);
      },
      checkoutExpired: async (id) => {
        orderEvents.push(`expired ${id}`);
      },
      chargeRefunded: async (id) => {
        orderEvents.push(`refunded ${id}`);
      },
      payoutsReady: async (userId) => {
        orderEvents.push(`payouts ${userId}`);
      },
    },
  };
  return { deps, repo, statuses, published, notified, orderEvents };
}

function signed(event: object, secret = SECRET, at = NOW) {
  const payload = JSON.stringify(event);
  const signature = sdk.webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
  return { payload, signature };
}

const EVENT = {
  id: 'evt_1',
  object: 'event',
  type: 'account.updated',
  data: { object: { id: 'acct_1', object: 'account' } },
};

describe('handleWebhook', () => {
  it('takes either endpoint secret (platform, Connect) and refuses others and stale timestamps', async () => {
    const { deps } = setup();
    await expect(handleWebhook(deps, signed(EVENT, CONNECT_SECRET), NOW)).resolves.toEqual({
      received: true,
      duplicate: false,
    });
    for (const input of [
      signed({ ...EVENT, id: 'evt_2' }, 'whsec_other'),
      signed({ ...EVENT, id: 'evt_3' }, SECRET, new Date(NOW.getTime() - 301_000)),
      { payload: JSON.stringify(EVENT), signature: undefined },
    ]) {
      await expect(handleWebhook(deps, input, NOW)).rejects.toMatchObject({
        code: 'payments.errors.webhook_signature',
        status: 400,
      });
    }
  });

  it('handles an event once: a redelivery does nothing and says so', async () => {
    const { deps, statuses, published, notified } = setup();
    const first = await handleWebhook(deps, signed(EVENT), NOW);
    const again = await handleWebhook(deps, signed(EVENT), NOW);
    expect([first.duplicate, again.duplicate]).toEqual([false, true]);
    expect(statuses).toEqual(['complete']);
    expect(published).toEqual(['stripe.updated']);
    // The seller is told once, with the change as the event key (notify drops a repeat of it).
    expect(notified).toEqual(['minter_completed onboarding:acct_1:continue_onboarding>complete']);
    // Another event that finds the status already kept tells nothing more.
    await handleWebhook(deps, signed({ ...EVENT, id: 'evt_9' }), NOW);
    expect(notified).toHaveLength(1);
  });

  it('gives a failed handling up, so the retry does it (once)', async () => {
    const { deps, repo, statuses } = setup({ failFirst: true });
    await expect(handleWebhook(deps, signed(EVENT), NOW)).rejects.toThrow('network down');
    expect(repo.events.has('evt_1')).toBe(false);
    await expect(handleWebhook(deps, signed(EVENT), NOW)).resolves.toMatchObject({
      duplicate: false,
    });
    expect(statuses).toEqual(['complete']);
  });

  it('refuses a delivery while another holds the event (409), and takes over an expired lease', async () => {
    const { deps, repo, statuses } = setup();
    repo.events.set('evt_1', { state: 'processing', lease: NOW.getTime() + 30_000 });
    const busy = await handleWebhook(deps, signed(EVENT), NOW).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(DomainError);
    expect((busy as DomainError).status).toBe(409);
    expect(statuses).toEqual([]);
    const later = new Date(NOW.getTime() + 31_000);
    await expect(handleWebhook(deps, signed(EVENT, SECRET, later), later)).resolves.toMatchObject({
      duplicate: false,
    });
    expect(statuses).toEqual(['complete']);
  });

  it('acknowledges an event type it does not handle without claiming it', async () => {
    const { deps, repo } = setup();
    await expect(
      handleWebhook(deps, signed({ ...EVENT, id: 'evt_9', type: 'payout.paid' }), NOW),
    ).resolves.toEqual({ received: true, duplicate: false });
    expect(repo.events.size).toBe(0);
  });
});
