import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import type { PaymentsDeps } from './payments';
import type { EventClaim, PaymentsRepo, PaymentsRecord } from './payments.repo';
import { EVENT_LEASE_MS } from './payments.repo';
import { EVENT_SWEEP_GRACE_MS, handleEvent, handleWebhook, sweepEvents } from './webhook';

/**
 * The webhook (keep the event once, answer at once) and the event's once-only handling off the
 * request path with a fake repo (the lease, a failed handling given back and redone, a concurrent
 * handling refused, the sweep of events left pending) and the real SDK's signature check; the
 * integration tests run the same against the twin and DynamoDB Local.
 */
const SECRET = 'whsec_unit';
const CONNECT_SECRET = 'whsec_connect_unit';
const sdk = new Stripe('sk_test_unit');
const NOW = new Date('2026-11-24T12:00:00Z');

interface KeptEvent {
  state: 'received' | 'processing' | 'done';
  lease: number;
  payload: string;
  at: number;
}

function fakeRepo(): PaymentsRepo & { events: Map<string, KeptEvent> } {
  const events = new Map<string, KeptEvent>();
  const records = new Map<string, PaymentsRecord>([
    ['u1', { user_id: 'u1', stripe_account_id: 'acct_1', updated_at: NOW.toISOString() }],
  ]);
  return {
    events,
    getRecord: async (userId) => records.get(userId),
    keepAccount: async (_u, accountId) => accountId,
    keepCustomer: async (_u, customerId) => customerId,
    userOfAccount: async (accountId) => (accountId === 'acct_1' ? 'u1' : undefined),
    forgetAccount: async () => undefined,
    async receiveEvent(event, now) {
      if (events.has(event.id)) return 'known';
      events.set(event.id, {
        state: 'received',
        lease: 0,
        payload: event.payload,
        at: now.getTime(),
      });
      return 'new';
    },
    async claimEvent(eventId, now): Promise<EventClaim> {
      const found = events.get(eventId);
      if (found === undefined) return 'missing';
      if (found.state === 'done') return 'done';
      if (found.state === 'processing' && found.lease >= now.getTime()) return 'busy';
      events.set(eventId, { ...found, state: 'processing', lease: now.getTime() + EVENT_LEASE_MS });
      return 'claimed';
    },
    async finishEvent(eventId) {
      const found = events.get(eventId);
      if (found !== undefined) events.set(eventId, { ...found, state: 'done', lease: 0 });
    },
    async releaseEvent(eventId) {
      const found = events.get(eventId);
      if (found?.state === 'processing') events.set(eventId, { ...found, state: 'received' });
    },
    reconcileCursor: async () => undefined,
    moveReconcileCursor: async () => undefined,
    keepFinding: async () => undefined,
    listFindings: async () => [],
    async pendingEvents(before, limit) {
      return [...events.entries()]
        .filter(([, kept]) => kept.state !== 'done' && kept.at < Date.parse(before))
        .slice(0, limit)
        .map(([id, kept]) => ({ id, payload: kept.payload }));
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
          capabilities: { transfers: 'active' },
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
      auditMovement: async () => null,
      disputeChanged: async () => undefined,
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

const parsed = (input: { payload: string }) => JSON.parse(input.payload) as Stripe.Event;

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

  it('keeps the event and answers at once: nothing is handled on the request path', async () => {
    const { deps, repo, statuses } = setup();
    const first = await handleWebhook(deps, signed(EVENT), NOW);
    const again = await handleWebhook(deps, signed(EVENT), NOW);
    expect([first.duplicate, again.duplicate]).toEqual([false, true]);
    expect(repo.events.get('evt_1')).toMatchObject({ state: 'received' });
    expect(statuses).toEqual([]);
  });

  it('acknowledges an event type it does not handle without keeping it', async () => {
    const { deps, repo } = setup();
    await expect(
      handleWebhook(deps, signed({ ...EVENT, id: 'evt_9', type: 'payout.paid' }), NOW),
    ).resolves.toEqual({ received: true, duplicate: false });
    expect(repo.events.size).toBe(0);
  });
});

describe('handleEvent (the stripeEvents trigger) and the sweep', () => {
  it('handles a kept event once: a second delivery finds it done', async () => {
    const { deps, statuses, published, notified } = setup();
    await handleWebhook(deps, signed(EVENT), NOW);
    expect(await handleEvent(deps, parsed(signed(EVENT)), NOW)).toBe('handled');
    expect(await handleEvent(deps, parsed(signed(EVENT)), NOW)).toBe('done');
    expect(statuses).toEqual(['complete']);
    expect(published).toEqual(['stripe.updated']);
    // The seller is told once, with the change as the event key (notify drops a repeat of it).
    expect(notified).toEqual(['minter_completed onboarding:acct_1:continue_onboarding>complete']);
    // Another event that finds the status already kept tells nothing more.
    const other = signed({ ...EVENT, id: 'evt_9' });
    await handleWebhook(deps, other, NOW);
    await handleEvent(deps, parsed(other), NOW);
    expect(notified).toHaveLength(1);
  });

  it('gives a failed handling back (pending again), so the retry does it once', async () => {
    const { deps, repo, statuses } = setup({ failFirst: true });
    await handleWebhook(deps, signed(EVENT), NOW);
    await expect(handleEvent(deps, parsed(signed(EVENT)), NOW)).rejects.toThrow('network down');
    expect(repo.events.get('evt_1')).toMatchObject({ state: 'received' });
    expect(await handleEvent(deps, parsed(signed(EVENT)), NOW)).toBe('handled');
    expect(statuses).toEqual(['complete']);
  });

  it('refuses a handling while another holds the event, and takes over an expired lease', async () => {
    const { deps, repo, statuses } = setup();
    await handleWebhook(deps, signed(EVENT), NOW);
    const kept = repo.events.get('evt_1') as KeptEvent;
    repo.events.set('evt_1', { ...kept, state: 'processing', lease: NOW.getTime() + 30_000 });
    expect(await handleEvent(deps, parsed(signed(EVENT)), NOW)).toBe('busy');
    expect(statuses).toEqual([]);
    const later = new Date(NOW.getTime() + 31_000);
    expect(await handleEvent(deps, parsed(signed(EVENT)), later)).toBe('handled');
    expect(statuses).toEqual(['complete']);
  });

  it('sweeps the events still pending after the grace, and leaves the recent ones', async () => {
    const { deps, statuses } = setup();
    await handleWebhook(deps, signed(EVENT), NOW);
    const budget = { limit: 100, remainingMs: () => 60_000 };
    expect(await sweepEvents(deps, new Date(NOW.getTime() + 1_000), budget)).toEqual({
      handled: [],
      failed: [],
    });
    const late = new Date(NOW.getTime() + EVENT_SWEEP_GRACE_MS + 1);
    expect(await sweepEvents(deps, late, budget)).toEqual({ handled: ['evt_1'], failed: [] });
    expect(statuses).toEqual(['complete']);
    expect(await sweepEvents(deps, late, budget)).toEqual({ handled: [], failed: [] });
  });
});
