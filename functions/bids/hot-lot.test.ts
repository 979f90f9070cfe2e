import { describe, expect, it } from 'vitest';
import { contending, replay, type BookEntry } from '../../shared/auction';
import { countdownBudget, fixedClock, manualBudget, type Budget } from '../core/clock';
import { isDomainError } from '../core/errors';
import type {
  BidLogLine,
  BidderRecord,
  BidsRepo,
  CommitResult,
  LotChangeNote,
  QueuedChange,
  QueuedOutcome,
} from './bids.repo';
import { changesOf } from './bids.repo';
import { newLot, type LotRecord } from './lot';
import { ANSWER_MARGIN_MS, createBid, forgetRecentLots } from './place';
import type { BidsDeps } from './ports';
import { bidInput } from './testing/inputs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { LOT_TYPE } from './bids.keys';

/**
 * A hot lot (docs/auctions.md "A hot lot"): a bid that loses the race for the lot twice, or finds
 * changes queued under it, queues itself, and whichever writer takes the lot next decides the
 * queue in order in its own write. Driven through createBid on a lot kept in memory by a repo
 * that behaves as the table does (conditioned writes, the queue's items, the lot's counts), each
 * call yielding so that many bids interleave, on manual budgets (no wall clock: a bid's waits
 * spend its budget).
 */
const OFFERING = 'oF01KAXD0000000000000000000H';
const SELLER = '01KAXD0000000000000000SELL';
const NOW = new Date('2026-11-25T10:00:00.000Z');
const BUDGET_MS = 29_000;

const tick = () =>
  new Promise<void>((resolve) => {
    setImmediate(resolve);
  });

interface Stored {
  change: QueuedChange;
  outcome?: QueuedOutcome;
}

/** The table as a bid sees it, in memory: the lot, the entries, the queue and the log (the stream's). */
function memoryTable(copies: number, options: { commitLoses?: boolean; hang?: boolean } = {}) {
  forgetRecentLots();
  let lot: LotRecord | undefined = newLot(
    {
      id: OFFERING,
      item_id: 'it01',
      seller_id: SELLER,
      issuer_id: SELLER,
      currency: 'EUR',
      start_at: '2026-11-24T10:00:00.000Z',
      end_at: '2026-11-28T10:00:00.000Z',
      copies,
      price: 1_000,
      reserve_price: null,
      multi_copy: copies > 1,
      access: 'public',
      invited_ids: [],
      item_title: 'A print',
      item_image: 'https://images.example/a.webp',
      delivery: 'none',
      countries: [],
    },
    5 * 60_000,
  );
  const entries = new Map<string, BidderRecord>();
  const queue = new Map<string, Stored>();
  const log: BidLogLine[] = [];
  const notes: LotChangeNote[] = [];
  const stats = { commits: 0, lost: 0, enqueued: 0, withdrawn: 0 };
  const never = new Promise<never>(() => undefined);
  const copy = <T>(value: T): T => structuredClone(value);
  // A bid's write: at its version, no change waiting; a queue's write: at its version alone.
  const lotMatches = (expected: number, queueWrite: boolean) =>
    (lot?.version ?? 0) === expected && (queueWrite || (lot?.queued ?? 0) <= (lot?.drained ?? 0));
  const undecided = () =>
    [...queue.values()]
      .filter((entry) => entry.outcome === undefined)
      .sort((a, b) => a.change.ticket.localeCompare(b.change.ticket));
  const repo: Partial<BidsRepo> = {
    tableName: 'memory',
    async getLot() {
      await tick();
      return lot === undefined ? undefined : copy(lot);
    },
    async getBidder(_offeringId, userId) {
      await tick();
      const entry = entries.get(userId);
      return entry === undefined ? undefined : copy(entry);
    },
    async getBidders(_offeringId, userIds) {
      await tick();
      return userIds.flatMap((userId) => {
        const entry = entries.get(userId);
        return entry === undefined ? [] : [copy(entry)];
      });
    },
    async biddersOf() {
      await tick();
      return [...entries.values()].map(copy);
    },
    async commit(next, expected, note, bidders, evicted = [], _markStale, decided = []) {
      await tick();
      if (options.hang) return never;
      stats.commits += 1;
      const lost = (): CommitResult => {
        stats.lost += 1;
        return {
          written: false,
          current: lot === undefined ? undefined : copy(lot),
          conflict: false,
        };
      };
      if (options.commitLoses || !lotMatches(expected, decided.length > 0)) return lost();
      for (const entry of bidders) {
        if ((entries.get(entry.bidder_id)?.version ?? 0) !== entry.version - 1) {
          return {
            written: false,
            current: undefined,
            conflict: false,
            bidder: { current: undefined },
          };
        }
      }
      for (const { ticket } of decided) {
        const item = queue.get(ticket);
        if (item === undefined || item.outcome !== undefined) {
          return { written: false, current: undefined, conflict: true };
        }
      }
      // A queue's write leaves the queue's count as changes queued meanwhile made it.
      lot = decided.length > 0 ? { ...copy(next), queued: lot?.queued ?? 0 } : copy(next);
      for (const entry of bidders) entries.set(entry.bidder_id, copy(entry));
      for (const standing of evicted) {
        const entry = entries.get(standing.bidder_id) as BidderRecord;
        entries.set(standing.bidder_id, {
          ...entry,
          standing: copy(standing),
          version: entry.version + 1,
        });
      }
      for (const { ticket, outcome } of decided) {
        (queue.get(ticket) as Stored).outcome = copy(outcome);
      }
      notes.push(copy(note));
      // The stream: each line of the note, in order; an entry left to it brought up to date.
      for (const line of [...(note.lines ?? []), note.line]) {
        const { follow: _follow, ...record } = line;
        log.push(record);
      }
      if (note.entry !== undefined) {
        const entry = entries.get(note.entry.bidder_id) as BidderRecord;
        entries.set(note.entry.bidder_id, { ...entry, standing: copy(note.entry.standing) });
      }
      return { written: true };
    },
    async enqueue(_offeringId, change) {
      await tick();
      if (!queue.has(change.ticket)) {
        queue.set(change.ticket, { change: copy(change) });
        stats.enqueued += 1;
      }
      if (lot === undefined) return undefined;
      lot = { ...lot, queued: (lot.queued ?? 0) + 1 };
      return lot.queued;
    },
    async queuedChanges(_offeringId, limit, after) {
      await tick();
      const all = undecided().filter((entry) => after === undefined || entry.change.ticket > after);
      return {
        changes: all.slice(0, limit).map((entry) => copy(entry.change)),
        complete: all.length <= limit,
      };
    },
    async queuedTickets(_offeringId, limit) {
      await tick();
      return undecided()
        .slice(0, limit)
        .map(({ change }) => ({ ticket: change.ticket, until: change.until }));
    },
    async queuedOutcome(_offeringId, ticket) {
      await tick();
      const item = queue.get(ticket);
      if (item === undefined) return undefined;
      return item.outcome === undefined ? null : copy(item.outcome);
    },
    async decideQueued(_offeringId, decided, version, drained) {
      await tick();
      if (options.commitLoses || (lot?.version ?? 0) !== version) return false;
      if (
        decided.some(({ ticket }) => queue.get(ticket)?.outcome !== undefined || !queue.has(ticket))
      ) {
        return false;
      }
      for (const { ticket, outcome } of decided)
        (queue.get(ticket) as Stored).outcome = copy(outcome);
      if (lot !== undefined) {
        lot = {
          ...lot,
          dequeued: (lot.dequeued ?? 0) + decided.length,
          ...(drained === undefined ? {} : { drained }),
        };
      }
      return true;
    },
    async withdrawQueued(_offeringId, ticket) {
      await tick();
      const item = queue.get(ticket);
      if (item === undefined || item.outcome !== undefined) return false;
      queue.delete(ticket);
      stats.withdrawn += 1;
      return true;
    },
    async dropQueued(_offeringId, ticket) {
      await tick();
      queue.delete(ticket);
    },
  };
  const deps = {
    repo: repo as BidsRepo,
    offerings: { isInvited: async () => false, apply: async () => true },
    cardsOf: async () => [
      {
        id: 'pm_card',
        brand: 'visa',
        funding: 'credit',
        last4: '4242',
        exp_month: 12,
        exp_year: 2034,
        created: NOW.toISOString(),
        default: true,
        expired: false,
      },
    ],
    nickOf: async (userId: string) => `nick-${userId.slice(-4)}`,
    imagesBaseUrl: 'https://images.example',
    softCloseMs: 5 * 60_000,
  } as unknown as BidsDeps;
  /** A queued change as another caller left it (its caller waiting elsewhere). */
  const queueOf = async (change: QueuedChange) => {
    await repo.enqueue?.(OFFERING, change);
  };
  return { deps, repo, stats, log, notes, queue, lot: () => lot as LotRecord, entries, queueOf };
}

/** How a bid ended: 201, or the refusal's status and code (500: anything else). */
async function outcomeOf(run: Promise<unknown>): Promise<{ status: number; code?: string }> {
  try {
    await run;
    return { status: 201 };
  } catch (error) {
    if (isDomainError(error)) return { status: error.status, code: error.code };
    return { status: 500, code: String(error) };
  }
}

const RULES = ['market.bid.errors.beaten', 'market.bid.errors.too_low'];

/** The lot replayed from its log through the rules (throws on a line the rules would refuse). */
function replayed(lot: LotRecord, log: readonly BidLogLine[]) {
  return replay(
    { ...lot.auction, seq: 0, book: [], bidders: 0, end_at: lot.scheduled_end_at },
    log.map((line) => ({
      kind: 'bid' as const,
      at: line.at,
      bid: {
        bidder_id: line.bidder_id,
        bidder_nick: line.nick,
        amount: line.amount,
        max: line.max === line.amount ? null : line.max,
        quantity: line.quantity,
      },
    })),
  );
}

const byBidder = (book: readonly BookEntry[]) =>
  [...book].sort((a, b) => a.bidder_id.localeCompare(b.bidder_id));

describe('a hot lot: every bid decided by the rules, within its budget', () => {
  it.each([
    [1, 80],
    [3, 80],
  ])(
    '%i copies, %i bidders at once: each ends accepted or refused by a rule, the lot equals its log replayed',
    async (copies, count) => {
      const table = memoryTable(copies);
      const budgets: ReturnType<typeof manualBudget>[] = [];
      const answers = await Promise.all(
        Array.from({ length: count }, (_, index) => {
          const budget = manualBudget(BUDGET_MS);
          budgets.push(budget);
          const amount = 1_000 + (index % 20) * 50;
          return outcomeOf(
            createBid(
              table.deps,
              bidInput(`01KAXD00000000000000B${String(index).padStart(5, '0')}`, OFFERING, amount, {
                quantity: copies > 1 ? 1 + (index % 2) : 1,
              }),
              NOW,
              budget,
            ),
          );
        }),
      );
      expect(
        answers.filter((answer) => answer.status !== 201 && !RULES.includes(answer.code ?? '')),
      ).toEqual([]);
      // The race went through the queue, and every budget kept its margin to answer.
      expect(table.stats.enqueued).toBeGreaterThan(0);
      for (const budget of budgets)
        expect(budget.elapsed()).toBeLessThanOrEqual(BUDGET_MS - ANSWER_MARGIN_MS);
      const accepted = answers.filter((answer) => answer.status === 201).length;
      expect(table.log).toHaveLength(accepted);
      expect(table.log.map((line) => line.index)).toEqual(table.log.map((_, index) => index));
      const whole = replayed(table.lot(), table.log);
      expect(byBidder(table.lot().auction.book)).toEqual(byBidder(contending(whole).state.book));
      // The queue is empty again, and the lot says so.
      expect([...table.queue.values()].filter((entry) => entry.outcome === undefined)).toEqual([]);
      expect(table.lot().drained).toBe(table.lot().queued);
    },
  );

  it('a bid that finds changes queued goes behind them and decides them, in order, in its own write', async () => {
    const table = memoryTable(1);
    // Someone's bid, to make the lot exist.
    await createBid(
      table.deps,
      bidInput('01KAXD000000000000000FIRST', OFFERING, 1_000),
      NOW,
      manualBudget(BUDGET_MS),
    );
    const card = { id: 'pm_card', brand: 'visa', last4: '4242' };
    const queued = (
      ticket: string,
      bidder: string,
      amount: number,
      until = NOW.getTime() + 20_000,
    ) => ({
      ticket,
      kind: 'bid' as const,
      bidder_id: bidder,
      at: NOW.toISOString(),
      until,
      bid: {
        amount,
        max: null,
        quantity: 1,
        currency: 'EUR',
        nick: `n-${bidder.slice(-4)}`,
        card,
        address: null,
      },
    });
    // Two changes wait (their callers elsewhere), and one whose caller's budget ran out.
    await table.queueOf(queued('01KAXD0000000000000000000A', '01KAXD00000000000000000AAA', 1_100));
    await table.queueOf(queued('01KAXD0000000000000000000B', '01KAXD00000000000000000BBB', 1_100));
    await table.queueOf(
      queued('01KAXD0000000000000000000C', '01KAXD00000000000000000CCC', 5_000, NOW.getTime() - 1),
    );
    const view = await createBid(
      table.deps,
      bidInput('01KAXD00000000000000000DDD', OFFERING, 1_300),
      NOW,
      manualBudget(BUDGET_MS),
    );
    expect(view.mine?.status).toBe('active');
    const outcomes = [...table.queue.values()]
      .sort((a, b) => a.change.ticket.localeCompare(b.change.ticket))
      .slice(0, 3)
      .map((entry) => [
        entry.change.bidder_id.slice(-3),
        entry.outcome?.status,
        entry.outcome?.status === 'refused' ? entry.outcome.error.code : undefined,
      ]);
    // In queue order: A beats the first bid; B (the same amount, later) is beaten; C expired.
    expect(outcomes).toEqual([
      ['AAA', 'accepted', undefined],
      ['BBB', 'refused', 'market.bid.errors.beaten'],
      ['CCC', 'expired', undefined],
    ]);
    // One write decided them and the caller's own bid after them: its note holds both lines.
    expect(table.log.map((line) => [line.bidder_id.slice(-5), line.amount])).toEqual([
      ['FIRST', 1_000],
      ['00AAA', 1_100],
      ['00DDD', 1_300],
    ]);
    const last = table.notes.at(-1) as LotChangeNote;
    expect(last.lines?.map((line) => line.bidder_id.slice(-3))).toEqual(['AAA']);
    // The stream hands each line on as a change of its own.
    const event = {
      Records: [
        {
          eventName: 'MODIFY',
          dynamodb: {
            SequenceNumber: '1',
            NewImage: marshall(
              { pk: 'x', sk: 'LOT', type: LOT_TYPE, ...table.lot(), last },
              { removeUndefinedValues: true },
            ),
          },
        },
      ],
    } as unknown as DynamoDBStreamEvent;
    expect(
      changesOf(event).map((change) => [change.sequence, change.note.line.bidder_id.slice(-3)]),
    ).toEqual([
      ['1', 'AAA'],
      ['1', 'DDD'],
    ]);
    expect(table.lot().drained).toBe(table.lot().queued);
    expect(table.lot().dequeued).toBe(4);
  });
});

describe('a lot the table keeps refusing: the retryable 503 within the budget, never a timeout', () => {
  it.each([
    ['every write of the lot loses', { commitLoses: true }, manualBudget(BUDGET_MS)],
    ['the table never answers a write', { hang: true }, countdownBudget(2_600)],
  ] as [string, { commitLoses?: boolean; hang?: boolean }, Budget & { elapsed?: () => number }][])(
    '%s',
    async (_name, options, budget) => {
      const table = memoryTable(1, options);
      const clock = fixedClock(NOW);
      const started = Date.now();
      const answer = await outcomeOf(
        createBid(
          table.deps,
          bidInput('01KAXD00000000000000000EEE', OFFERING, 1_000),
          clock.now(),
          budget,
        ),
      );
      expect(answer).toEqual({ status: 503, code: 'market.bid.errors.generic' });
      // It stopped in time to answer: the margin was left.
      if (budget.elapsed !== undefined) {
        // Lost twice, it queued itself, kept trying, then took its change out of the queue.
        expect(table.stats.enqueued).toBe(1);
        expect(table.stats.withdrawn).toBe(1);
        expect(budget.elapsed()).toBeLessThanOrEqual(BUDGET_MS - ANSWER_MARGIN_MS);
        expect(budget.elapsed()).toBeGreaterThan(BUDGET_MS - ANSWER_MARGIN_MS - 1_000);
      } else {
        expect(Date.now() - started).toBeLessThan(2_600);
        expect(budget.remainingMs()).toBeGreaterThan(0);
      }
      // Nothing was applied, and its queued change (if it got that far) left the queue: no later
      // writer applies a bid its caller was told was not.
      expect(table.log).toEqual([]);
      expect([...table.queue.values()].filter((entry) => entry.outcome === undefined)).toEqual([]);
    },
  );
});
