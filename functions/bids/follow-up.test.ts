import { describe, expect, it } from 'vitest';
import type { FollowUp } from './follow-up';
import { performFollowUps } from './follow-up';
import type { BidsDeps } from './ports';

/**
 * The bidEvents trigger's batch (follow-up.ts performFollowUps): each line's own news, the
 * watchers of a lot told its newest state once per batch, and the lines to deliver again.
 */
const NOW = new Date('2026-11-25T12:00:00.000Z');

function line(offeringId: string, index: number, extra: Partial<FollowUp> = {}): FollowUp {
  return {
    offeringId,
    sellerId: 'seller',
    currency: 'EUR',
    index,
    kind: 'bid',
    bidderId: `b${index}`,
    nick: `nick${index}`,
    visible: 1_000 + index * 100,
    quantity: 1,
    held: true,
    newBidder: false,
    outbid: [`b${index - 1}`],
    outbidNicks: [`nick${index - 1}`],
    extended: false,
    sync: false,
    minimBid: 1_050 + index * 100,
    highestBid: 1_000 + index * 100,
    bids: index + 1,
    endAt: `2026-11-26T00:00:0${index}.000Z`,
    item: { title: 'Lot', image: 'img', id: 'item' },
    ...extra,
  };
}

function harness(fail: { topic?: boolean; user?: string } = {}) {
  const topic: { topic: string; type: string; minimBid?: number; end_at?: string }[] = [];
  const users: { to: string; type: string }[] = [];
  const notified: { to: string; activity: string; eventKey: string }[] = [];
  const applied: { offeringId: string; index: number }[] = [];
  const deps = {
    publishTopic: async (
      to: string,
      message: { type: string; minimBid?: number; end_at?: string },
    ) => {
      if (fail.topic === true) throw new Error('gone');
      topic.push({
        topic: to,
        type: message.type,
        minimBid: message.minimBid,
        end_at: message.end_at,
      });
    },
    publish: async (to: string, message: { type: string }) => {
      if (fail.user === to) throw new Error('gone');
      users.push({ to, type: message.type });
    },
    notify: async (input: { to: string; activity: string; eventKey: string }) => {
      notified.push(input);
    },
    offerings: {
      apply: async (offeringId: string, event: { index: number }) => {
        applied.push({ offeringId, index: event.index });
        return true;
      },
    },
  } as unknown as BidsDeps;
  return { deps, topic, users, notified, applied };
}

describe('a batch of bid follow-ups', () => {
  it("tells each lot's watchers its newest state once, and every bidder their own news", async () => {
    const h = harness();
    const failed = await performFollowUps(
      h.deps,
      [line('oFA', 1), line('oFB', 7), line('oFA', 2, { extended: true }), line('oFA', 3)],
      NOW,
    );
    expect(failed).toEqual([]);
    expect(h.topic).toEqual(
      expect.arrayContaining([
        {
          topic: 'offering:oFA',
          type: 'bid.new',
          minimBid: 1_350,
          end_at: '2026-11-26T00:00:03.000Z',
        },
        {
          topic: 'offering:oFA',
          type: 'auction.extended',
          minimBid: undefined,
          end_at: '2026-11-26T00:00:03.000Z',
        },
        {
          topic: 'offering:oFB',
          type: 'bid.new',
          minimBid: 1_750,
          end_at: '2026-11-26T00:00:07.000Z',
        },
      ]),
    );
    expect(h.topic).toHaveLength(3);
    // Each line's bidder answered, each outbid bidder told on their channel and notified.
    expect(
      h.users
        .filter((entry) => entry.type === 'bid.response')
        .map((e) => e.to)
        .sort(),
    ).toEqual(['b1', 'b2', 'b3', 'b7']);
    expect(h.notified.map((entry) => entry.eventKey).sort()).toEqual([
      'outbid:oFA:1:b0',
      'outbid:oFA:2:b1',
      'outbid:oFA:3:b2',
      'outbid:oFB:7:b6',
    ]);
  });

  it("ends a lot's batch on a retraction with the stats, and refreshes counters from its newest line when one was due", async () => {
    const h = harness();
    await performFollowUps(
      h.deps,
      [
        line('oFA', 4, { sync: true }),
        line('oFA', 5, { kind: 'cancel', outbid: [], outbidNicks: [] }),
      ],
      NOW,
    );
    expect(h.topic.map((entry) => entry.type)).toEqual(['offering.stats']);
    expect(h.applied).toEqual([{ offeringId: 'oFA', index: 5 }]);
  });

  it('answers a bidder rebidding within one batch once, with their newest status', async () => {
    const h = harness();
    const statuses: string[] = [];
    const deps = {
      ...h.deps,
      publish: async (to: string, message: { type: string; status?: string }) => {
        if (message.type === 'bid.response') statuses.push(`${to}:${message.status ?? ''}`);
      },
    } as unknown as BidsDeps;
    await performFollowUps(
      deps,
      [
        line('oFA', 1, { bidderId: 'ann' }),
        line('oFA', 2, { bidderId: 'bo' }),
        // Ann's rebid is beaten by Bo's maximum at once: her newest status is outbid.
        line('oFA', 3, { bidderId: 'ann', held: false }),
        line('oFB', 4, { bidderId: 'ann' }),
      ],
      NOW,
    );
    expect(statuses.sort()).toEqual(['ann:active', 'ann:outbid', 'bo:active']);
  });

  it('answers the lines to deliver again: a line whose own news failed, a lot whose watchers were not told', async () => {
    // b2's channel fails: line 2 (their answer) and line 3 (they were outbid), not line 1.
    const own = harness({ user: 'b2' });
    expect(
      await performFollowUps(own.deps, [line('oFA', 1), line('oFA', 2), line('oFA', 3)], NOW),
    ).toEqual([1, 2]);
    const watchers = harness({ topic: true });
    expect(
      await performFollowUps(watchers.deps, [line('oFA', 1), line('oFB', 2), line('oFA', 3)], NOW),
    ).toEqual([1, 2]);
  });

  it('replays a kept batch without live events: the notifications (keyed, so never twice) and the counters only', async () => {
    const h = harness();
    const lines = [
      line('oFA', 1, { newBidder: true }),
      line('oFA', 2, { extended: true, sync: true }),
      line('oFB', 7),
    ];
    expect(await performFollowUps(h.deps, lines, NOW, 'replay')).toEqual([]);
    // The watchers and the bidders' tabs hold a newer state by now: none of it is sent again.
    expect(h.topic).toEqual([]);
    expect(h.users).toEqual([]);
    expect(h.notified.map((entry) => entry.eventKey).sort()).toEqual([
      'bid:oFA:1',
      'outbid:oFA:1:b0',
      'outbid:oFA:2:b1',
      'outbid:oFB:7:b6',
    ]);
    expect(h.applied).toEqual([{ offeringId: 'oFA', index: 2 }]);
    // The same lines live: the watchers and the bidders hear of them.
    const live = harness();
    await performFollowUps(live.deps, lines, NOW);
    expect(live.topic.map((entry) => entry.type).sort()).toEqual([
      'auction.extended',
      'bid.new',
      'bid.new',
    ]);
    expect(live.users.length).toBeGreaterThan(0);
  });
});
