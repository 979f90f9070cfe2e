import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { decodeCursor, encodeCursor } from '../core/cursor';
import {
  batchGetAll,
  batchWriteAll,
  cancellationReasons,
  isConditionalCheckFailed,
  isTransactionLost,
} from '../core/dynamo';
import { bidderCount, type BookEntry } from '../../shared/auction';
import type { BidStatus } from '../../shared/schemas/bids';
import {
  BIDDER_PREFIX,
  BIDDER_TYPE,
  QUEUED_TYPE,
  QUEUE_PREFIX,
  queuedKey,
  BID_LOG_PREFIX,
  BID_LOG_TYPE,
  LIVE_LOTS_PARTITION,
  STALE_LOTS_PARTITION,
  LOT_TYPE,
  MARKER_TYPE,
  bidLogKey,
  bidderKey,
  liveMarkerKey,
  lotKey,
  lotPartitionOf,
  staleMarkerKey,
  myBidsGroupPartition,
  myBidsPartition,
  timeSort,
} from './bids.keys';
import type { PostalAddress } from '../../shared/schemas/orders';
import type { CardRef, LotRecord } from './lot';
import type { DynamoDBStreamEvent } from 'aws-lambda';

/** One accepted bid or cancellation, in acceptance order (the lot's log). */
export interface BidLogLine {
  index: number;
  kind: 'bid' | 'cancel';
  bidder_id: string;
  nick: string;
  amount: number;
  max: number;
  quantity: number;
  /** The rules' acceptance number after this line. */
  seq: number;
  at: string;
  /**
   * What follows the line (the watchers' events, the bidder's answer, the outbid bidders and the
   * seller told): in the change's note on the lot, handled from the table's stream (the
   * `bidEvents` stream trigger); the stored line leaves it out.
   */
  follow?: unknown;
}

/**
 * What a bid or a cancellation leaves on the lot it writes, for the table's stream to carry out
 * (the `bidEvents` stream trigger): the log line with its follow-up, and the bidder's standing when
 * their entry was not written with the lot. A bid that keeps a bidder among the lot's contending
 * bids writes the lot alone; the lot's stream record is the durable rest of it.
 */
export interface LotChangeNote {
  /** The lot's version the change wrote: a later write of the lot that is no change carries it on. */
  version: number;
  /** The change's log line (the last one, when the write decided a queue: `lines` before it). */
  line: BidLogLine;
  /**
   * The lines a write that decided the lot's queue accepted before `line`, in order (absent: one
   * line). The stream carries each out as its own change.
   */
  lines?: BidLogLine[];
  /** The bidder's entry to bring up to this change (not written with the lot), else absent. */
  entry?: { bidder_id: string; standing: BookEntry | null; last_at: string };
}

/** A change of a batch of the lot's stream records, with its record's sequence number. */
export interface StreamedChange {
  sequence: string;
  note: LotChangeNote;
  /** The lot as the change wrote it. */
  lot: LotRecord;
}

/**
 * The changes a stream batch's lot records carry (`bidEvents`; its filter delivers only lot
 * images that carry a note), in stream order, each with its record's sequence number (the batch
 * item failure's identifier). A write of the lot that changed nothing a bidder did (the close, a
 * buy-now booking) carries the last change's note on: it is passed over.
 */
export function changesOf(event: DynamoDBStreamEvent): StreamedChange[] {
  return event.Records.flatMap((record) => {
    const image = record.dynamodb?.NewImage;
    const sequence = record.dynamodb?.SequenceNumber;
    if (image === undefined || sequence === undefined) return [];
    const raw = unmarshall(image as Record<string, AttributeValue>);
    const note = raw.last as LotChangeNote | undefined;
    const lot = lotOf(raw);
    if (note === undefined || note.version !== raw.version || lot === undefined) return [];
    // A write that decided a queue carries its lines in order: each is a change of its own.
    const earlier = (note.lines ?? []).map((line) => ({
      sequence,
      note: { version: note.version, line },
      lot,
    }));
    const { lines: _lines, ...last } = note;
    return [...earlier, { sequence, note: last, lot }];
  });
}

/**
 * A bid or retraction that lost the race for a hot lot, queued under it until a writer of the lot
 * decides it (docs/auctions.md, "A hot lot"): everything the rules need that the lot does not
 * hold, resolved by its caller (the card checked with Stripe, the address, the nick), so deciding
 * it costs the writer no call outside the table.
 */
export interface QueuedChange {
  /** Its place in the queue (a ULID: the queue reads in order). */
  ticket: string;
  kind: 'bid' | 'cancel';
  bidder_id: string;
  /** When the caller sent it (ISO): the rules decide it at that time, as if applied at once. */
  at: string;
  /** Epoch ms: the caller stops waiting then (its budget); a writer after it marks it expired. */
  until: number;
  /** A bid's terms and what its caller resolved; absent for a retraction. */
  bid?: {
    amount: number;
    max: number | null;
    quantity: number;
    currency: string;
    nick: string;
    card: CardRef;
    address: PostalAddress | null;
  };
}

/** How a queued change was decided, written on it by the writer that decided it. */
export type QueuedOutcome =
  | { status: 'accepted'; version: number }
  | {
      status: 'refused';
      error: {
        code: string;
        message: string;
        details?: Record<string, unknown>;
        fields?: Record<string, string>;
      };
    }
  /** Its caller's budget ran out before a writer came to it: not applied. */
  | { status: 'expired' };

/** How long a queued change's item is kept if its caller never takes its outcome (a crash). */
const QUEUED_TTL_S = 3_600;

/**
 * A bidder's entry in a lot: who bid with which card and where a won item goes, and what My Bids
 * lists (the lot gives the rest), so the lot stays the size of its leading bids alone. Written with
 * the lot (conditioned on its version) when a bid or retraction must: a first bid, a comeback, a
 * retraction, a bidder pushed out of the lot's book; brought up to a rebid that wrote the lot alone
 * by the stream (`applyChanges`).
 */
export interface BidderRecord {
  offering_id: string;
  bidder_id: string;
  nick: string;
  /** The saved card backing the bids (checked with Stripe on the first bid), or null. */
  card: CardRef | null;
  /** Where a delivered item goes if they win (spec 000 §5), or null. */
  address: PostalAddress | null;
  /** When they first bid (ISO). */
  first_at: string;
  /** When they last bid or retracted (ISO). */
  last_at: string;
  /** When they retracted their bid (ISO), or null. */
  cancelled_at: string | null;
  /**
   * Their standing bid, or null (retracted). A contending lot keeps only the bids that can change
   * its standing; the whole book is the bidders' standing bids (`contending` in shared/auction).
   */
  standing: BookEntry | null;
  /** active while the lot takes bids, closed after its end. */
  group: 'active' | 'closed';
  /** The status once known for good (after the close), else null (derived from the lot). */
  status: BidStatus | null;
  /** Each write of the entry adds one (0: not written yet). */
  version: number;
  /**
   * The lot's version its standing reflects: the stream brings an entry up to a change only when
   * it is newer (absent: written before entries knew it).
   */
  lot_version?: number;
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

/** A transaction entry another domain joins into its own transaction. */
export type TransactItem = Record<string, unknown>;

/**
 * A commit that did not write: the lot moved on (`current`: the lot as it stands, when DynamoDB
 * handed it back), the bidder's entry did (`bidder`: it as it stands, or undefined if it is gone
 * or was not handed back), or another writer held the lot at that instant (`conflict`).
 */
export type CommitResult =
  | { written: true }
  | {
      written: false;
      current: LotRecord | undefined;
      conflict: boolean;
      bidder?: { current: BidderRecord | undefined };
    };

export interface BidsRepo {
  tableName: string;
  getLot(offeringId: string): Promise<LotRecord | undefined>;
  getLots(offeringIds: readonly string[]): Promise<LotRecord[]>;
  /**
   * Writes the lot conditioned on the version read (0: it must not exist), carrying the change's
   * note for the stream, with the bidders' entries that must be current at once: `bidders` whole,
   * each conditioned on the version before theirs (`record.version - 1`), and `evicted` (bidders
   * the change left out of a contending lot's book) brought up to their standing bid. The lot
   * alone is one conditioned PutItem; with entries, one transaction. When another write came
   * first: not written, with the lot as that write left it when DynamoDB returned it
   * (ReturnValuesOnConditionCheckFailure), so the caller can retry without reading it again.
   * `markStale`: the change left the offering's counters lagging behind a lot that had them
   * current, and the lot joins the sweeper's list of those (its marker, in the same write).
   * A bid's write is refused while changes wait in the lot's queue (it goes behind them). With
   * `decided` (queued changes and their outcomes), the write decides the queue: each outcome is
   * written on its change, still undecided, and the lot is updated but for its queue count
   * (changes queued meanwhile keep counting), conditioned on its version alone.
   */
  commit(
    lot: LotRecord,
    expected: number,
    note: LotChangeNote,
    bidders: readonly BidderRecord[],
    evicted?: readonly BookEntry[],
    markStale?: boolean,
    decided?: readonly { ticket: string; outcome: QueuedOutcome }[],
  ): Promise<CommitResult>;
  /**
   * Queues a change under a hot lot: its item (a put that never meets another writer: each ticket
   * is its own key), then the lot's count of queued changes, one more (an update that is no change
   * of the lot: its version, its note's lines stay; the note itself is taken off, so the stream
   * passes the write over). Answers the lot's count after it (the change's number in the queue),
   * or undefined when no lot is written yet.
   */
  enqueue(offeringId: string, change: QueuedChange): Promise<number | undefined>;
  /**
   * The lot's queued changes not decided yet, in queue order, up to `limit` (consistent), those
   * after the ticket `after` only if given (a writer going on past the batch it decided);
   * `complete`: none left after them.
   */
  queuedChanges(
    offeringId: string,
    limit: number,
    after?: string,
  ): Promise<{ changes: QueuedChange[]; complete: boolean }>;
  /**
   * Where the lot's undecided queued changes stand, up to `limit`, in queue order: their tickets
   * and their callers' deadlines alone (a waiting caller's look at the queue).
   */
  queuedTickets(offeringId: string, limit: number): Promise<{ ticket: string; until: number }[]>;
  /** A queued change's outcome: null while undecided, undefined when its item is gone. */
  queuedOutcome(offeringId: string, ticket: string): Promise<QueuedOutcome | null | undefined>;
  /**
   * Outcomes of queued changes decided on the lot as it stood at `version`, that change nothing of
   * it (every one refused or expired): written on their items, each only if still undecided, with
   * the lot's count of decided changes (`dequeued`), while the lot is at that version; `drained`:
   * the queue count the lot had when these were all it held. False when one was decided or
   * withdrawn meanwhile, or the lot moved on (nothing written).
   */
  decideQueued(
    offeringId: string,
    decided: readonly { ticket: string; outcome: QueuedOutcome }[],
    version: number,
    drained?: number,
  ): Promise<boolean>;
  /** Takes an undecided change out of the queue (its caller gives up); false once decided. */
  withdrawQueued(offeringId: string, ticket: string): Promise<boolean>;
  /** Deletes a decided change's item once its caller has the outcome. */
  dropQueued(offeringId: string, ticket: string): Promise<void>;
  /** Some bidders' entries in a lot (consistent). */
  getBidders(offeringId: string, userIds: readonly string[]): Promise<BidderRecord[]>;
  /**
   * What the stream carries out of a batch of changes (the bidEvents trigger): the log lines,
   * and the entries not written with their lot brought up to their newest change. Idempotent.
   */
  applyChanges(
    changes: readonly { note: LotChangeNote; lot: Pick<LotRecord, 'offering_id'> }[],
  ): Promise<void>;
  /** A bidder's entry in a lot (consistent), or undefined if they never bid on it. */
  getBidder(offeringId: string, userId: string): Promise<BidderRecord | undefined>;
  /** Every bidder's entry in a lot (consistent; the close). */
  biddersOf(offeringId: string): Promise<BidderRecord[]>;
  /**
   * The lot alone, conditioned on the version read (0: it must not exist). A new lot joins the
   * sweeper's list of lots not closed (its marker, in the same transaction), a closed one leaves
   * it. False when another write came first.
   */
  saveLot(lot: LotRecord, expected: number): Promise<boolean>;
  logOf(offeringId: string): Promise<BidLogLine[]>;
  putBidders(records: readonly BidderRecord[]): Promise<void>;
  myBids(
    userId: string,
    group: 'any' | 'active' | 'closed',
    cursor: string | null,
    limit: number,
  ): Promise<Page<BidderRecord>>;
  /** Lots whose offering counters lag behind their bids (their stale markers). */
  staleLots(limit: number): Promise<string[]>;
  /**
   * Takes a lot off the list of lagging counters, if it is still at `version` with its counters
   * current (else a bid made them lag again, and the lot stays on it). True when taken off.
   */
  clearStale(offeringId: string, version: number): Promise<boolean>;
  /**
   * The ids of lots not closed whose end is before `before` (ISO), earliest first, by their live markers:
   * a marker keeps the end the lot opened with until the close's next look or the sweeper moves it
   * (`markLive`), so an extended lot's end may be later than the one listed.
   */
  dueLots(before: string, limit: number): Promise<string[]>;
  /**
   * A lot's live marker at the lot's end: written if missing (a lot written before markers), moved
   * on to a later end (an extension); never back, and no write when it is already there.
   */
  markLive(offeringId: string, endAt: string): Promise<void>;
  /** A lot's live marker removed (the lot closed, or gone). */
  dropLive(offeringId: string): Promise<void>;
  /**
   * The piece a delisting joins: it closes the lot, and fails when the lot has bids (spec 000 §4:
   * an auction is delisted only without registered bids).
   */
  delistGuardPiece(offeringId: string): TransactItem;
  /**
   * The piece a buy-now booking of an auction joins (eBay's rule: buy now until the first bid):
   * it takes the copies out of the lot, and fails when the lot has a bid, is not open, or has
   * fewer copies.
   */
  buyNowPiece(offeringId: string, quantity: number): TransactItem;
  /** An expired buy-now booking's copies back into the lot, while it is open. */
  returnBuyNow(offeringId: string, quantity: number): Promise<void>;
}

/** The lot's item: no index keys (the sweeper's indexes hold its markers). */
function lotItem(lot: LotRecord): Record<string, unknown> {
  return {
    ...lotKey(lot.offering_id),
    type: LOT_TYPE,
    ...lot,
    bidders_count: bidderCount(lot.auction),
  };
}

function liveMarker(offeringId: string, endAt: string): Record<string, unknown> {
  return {
    ...liveMarkerKey(offeringId),
    type: MARKER_TYPE,
    offering_id: offeringId,
    end_at: endAt,
    gsi3pk: LIVE_LOTS_PARTITION,
    gsi3sk: timeSort(endAt, offeringId),
  };
}

function staleMarker(offeringId: string): Record<string, unknown> {
  return {
    ...staleMarkerKey(offeringId),
    type: MARKER_TYPE,
    offering_id: offeringId,
    gsi4pk: STALE_LOTS_PARTITION,
    gsi4sk: offeringId,
  };
}

function lotOf(raw: Record<string, unknown>): LotRecord | undefined {
  // A delisting closes a lot that never had a bid by writing only its phase: no lot to show.
  if (raw.auction === undefined) return undefined;
  const {
    pk: _pk,
    sk: _sk,
    type: _type,
    bidders_count: _count,
    // Lots written before the sweeper's indexes moved to markers carried their keys.
    gsi3pk: _g1,
    gsi3sk: _g2,
    gsi4pk: _g3,
    gsi4sk: _g4,
    // Lots written before the bidders' cards and addresses moved to their entries.
    bidders: _bidders,
    // The stream's note of the last change (bidEvents): never carried into another write.
    last: _last,
    ...rest
  } = raw;
  // A lot written before lots kept their contending bids alone holds every bid.
  return { contending: false, ...rest } as unknown as LotRecord;
}

function bidderItem(record: BidderRecord): Record<string, unknown> {
  const sort = timeSort(record.last_at, record.offering_id);
  return {
    ...bidderKey(record.offering_id, record.bidder_id),
    type: BIDDER_TYPE,
    ...record,
    gsi1pk: myBidsPartition(record.bidder_id),
    gsi1sk: sort,
    gsi2pk: myBidsGroupPartition(record.bidder_id, record.group),
    gsi2sk: sort,
  };
}

function bidderOf(raw: Record<string, unknown>): BidderRecord {
  const lastAt = raw.last_at as string;
  return {
    offering_id: raw.offering_id as string,
    bidder_id: raw.bidder_id as string,
    nick: (raw.nick as string | undefined) ?? '',
    card: (raw.card as CardRef | null | undefined) ?? null,
    address: (raw.address as PostalAddress | null | undefined) ?? null,
    first_at: (raw.first_at as string | undefined) ?? lastAt,
    last_at: lastAt,
    cancelled_at: (raw.cancelled_at as string | null | undefined) ?? null,
    standing: (raw.standing as BookEntry | null | undefined) ?? null,
    group: raw.group as BidderRecord['group'],
    status: (raw.status as BidStatus | null | undefined) ?? null,
    version: (raw.version as number | undefined) ?? 0,
    ...(typeof raw.lot_version === 'number' ? { lot_version: raw.lot_version } : {}),
  };
}

/** An entry's write, conditioned on the version before it (none: it must not exist yet). */
function bidderCondition(record: BidderRecord): {
  ConditionExpression: string;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  // An entry written before entries had versions counts as none.
  return record.version <= 1
    ? { ConditionExpression: 'attribute_not_exists(pk) OR attribute_not_exists(version)' }
    : {
        ConditionExpression: 'version = :before',
        ExpressionAttributeValues: { ':before': record.version - 1 },
      };
}

/**
 * A write of the lot: at the version read (0: it must not exist), and with as many changes queued
 * under it as read, so a change queued meanwhile is never written over (the count is the lot's
 * signal that changes wait: the write fails and hands back the lot that says so).
 */
function lotCondition(
  expected: number,
  queued = 0,
): {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  return expected === 0
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : {
        ConditionExpression:
          queued === 0
            ? 'version = :expected AND (attribute_not_exists(#queued) OR #queued = :queued)'
            : 'version = :expected AND #queued = :queued',
        ExpressionAttributeNames: { '#queued': 'queued' },
        ExpressionAttributeValues: { ':expected': expected, ':queued': queued },
      };
}

/**
 * A bid's write of the lot: at the version read (0: it must not exist), and only while no change
 * waits in the lot's queue (a bid never jumps it: the write fails and hands back the lot that says
 * changes wait). A change queued after the write came later, so the write never loses its count.
 */
function bidCondition(expected: number): {
  ConditionExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  return expected === 0
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : {
        ConditionExpression:
          'version = :expected AND (attribute_not_exists(#queued) OR #queued <= #drained)',
        ExpressionAttributeNames: { '#queued': 'queued', '#drained': 'drained' },
        ExpressionAttributeValues: { ':expected': expected },
      };
}

/**
 * The write of the lot that decides its queue: every attribute set but the queue's count, which
 * changes queued meanwhile keep adding to (so it is conditioned on the version alone, and the
 * enqueuing never makes it lose); the keys lots written long ago carried, removed.
 */
function queueWrite(
  TableName: string,
  lot: LotRecord,
  note: LotChangeNote,
  expected: number,
): Record<string, unknown> {
  const item: Record<string, unknown> = { ...lotItem(lot), last: note };
  const { pk: _pk, sk: _sk, queued: _queued, ...fields } = item;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  return {
    TableName,
    Key: lotKey(lot.offering_id),
    UpdateExpression: `SET ${sets.join(', ')} REMOVE gsi3pk, gsi3sk, gsi4pk, gsi4sk, bidders`,
    ...(expected === 0
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : { ConditionExpression: 'version = :expected' }),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ...values, ...(expected === 0 ? {} : { ':expected': expected }) },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

function queuedItem(offeringId: string, change: QueuedChange): Record<string, unknown> {
  return {
    ...queuedKey(offeringId, change.ticket),
    type: QUEUED_TYPE,
    offering_id: offeringId,
    ...change,
    ttl: Math.floor(change.until / 1000) + QUEUED_TTL_S,
  };
}

function queuedOf(raw: Record<string, unknown>): QueuedChange {
  return {
    ticket: raw.ticket as string,
    kind: raw.kind as QueuedChange['kind'],
    bidder_id: raw.bidder_id as string,
    at: raw.at as string,
    until: raw.until as number,
    ...(raw.bid === undefined ? {} : { bid: raw.bid as NonNullable<QueuedChange['bid']> }),
  };
}

/** A queued change's outcome written on it, if it is still undecided. */
function outcomeUpdate(
  TableName: string,
  offeringId: string,
  decided: { ticket: string; outcome: QueuedOutcome },
): Record<string, unknown> {
  return {
    Update: {
      TableName,
      Key: queuedKey(offeringId, decided.ticket),
      UpdateExpression: 'SET outcome = :outcome',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(outcome)',
      ExpressionAttributeValues: { ':outcome': decided.outcome },
    },
  };
}

export function createBidsRepo(deps: { doc: DynamoDBDocumentClient; tableName: string }): BidsRepo {
  const { doc, tableName: TableName } = deps;
  /** Every item of a lot's partition under a sort-key prefix (consistent, page after page). */
  const partitionItems = async (offeringId: string, prefix: string) => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': lotPartitionOf(offeringId), ':prefix': prefix },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(result.Items ?? []));
      start = result.LastEvaluatedKey;
    } while (start !== undefined);
    return items;
  };
  return {
    tableName: TableName,

    async getLot(offeringId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: lotKey(offeringId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : lotOf(result.Item);
    },

    async getLots(offeringIds) {
      const keys = [...new Set(offeringIds)].map((id) => ({ ...lotKey(id) }));
      return (await batchGetAll(doc, TableName, keys)).flatMap((raw) => lotOf(raw) ?? []);
    },

    async commit(lot, expected, note, bidders, evicted = [], markStale = false, decided = []) {
      const lotPut = {
        TableName,
        Item: { ...lotItem(lot), last: note },
        ...bidCondition(expected),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      };
      if (bidders.length === 0 && evicted.length === 0 && !markStale && decided.length === 0) {
        try {
          await doc.send(new PutCommand(lotPut));
          return { written: true };
        } catch (error) {
          if (!isConditionalCheckFailed(error)) throw error;
          // The document client leaves a condition failure's item in DynamoDB's own format.
          const raw = (error as { Item?: Record<string, AttributeValue> }).Item;
          return {
            written: false,
            current: raw === undefined ? undefined : lotOf(unmarshall(raw)),
            conflict: false,
          };
        }
      }
      const items: TransactItem[] = [
        decided.length === 0
          ? { Put: lotPut }
          : { Update: queueWrite(TableName, lot, note, expected) },
        ...bidders.map((record) => ({
          Put: {
            TableName,
            Item: bidderItem(record),
            ...bidderCondition(record),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        })),
        // Left out of the lot's book, their standing bid lives on their entry alone from now on:
        // it is written with the lot, never left to the stream (their next bid decides on it).
        ...evicted.map((standing) => {
          const sort = timeSort(standing.placed_at, lot.offering_id);
          return {
            Update: {
              TableName,
              Key: bidderKey(lot.offering_id, standing.bidder_id),
              UpdateExpression:
                'SET standing = :standing, last_at = :at, gsi1sk = :sort, gsi2sk = :sort, lot_version = :lot ADD version :one',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: {
                ':standing': standing,
                ':at': standing.placed_at,
                ':sort': sort,
                ':lot': lot.version,
                ':one': 1,
              },
            },
          };
        }),
        // The queued changes this write decided: each only if still undecided.
        ...decided.map((entry) => outcomeUpdate(TableName, lot.offering_id, entry)),
        // Last: the cancellation reasons above are read by position.
        ...(markStale ? [{ Put: { TableName, Item: staleMarker(lot.offering_id) } }] : []),
      ];
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: items as never }));
        return { written: true };
      } catch (error) {
        const reasons = cancellationReasons(error);
        const lotReason = reasons?.[0];
        if (lotReason?.Code === 'ConditionalCheckFailed') {
          // The document client leaves a cancellation's item in DynamoDB's own attribute format.
          const raw = lotReason.Item as Record<string, AttributeValue> | undefined;
          return {
            written: false,
            current: raw === undefined ? undefined : lotOf(unmarshall(raw)),
            conflict: false,
          };
        }
        // A bidder's entry written meanwhile (their bid in another tab, through another container).
        const bidderReason = reasons
          ?.slice(1, 1 + bidders.length)
          .find((reason) => reason.Code === 'ConditionalCheckFailed');
        if (bidderReason !== undefined) {
          const raw = bidderReason.Item as Record<string, AttributeValue> | undefined;
          return {
            written: false,
            current: undefined,
            conflict: false,
            bidder: { current: raw === undefined ? undefined : bidderOf(unmarshall(raw)) },
          };
        }
        // Two writers of one lot at the same instant: DynamoDB cancels one with a conflict; or a
        // queued change this write decided was decided or withdrawn meanwhile.
        const queuedFrom = 1 + bidders.length + evicted.length;
        const queuedLost = reasons
          ?.slice(queuedFrom, queuedFrom + decided.length)
          .some((reason) => reason.Code === 'ConditionalCheckFailed');
        if (queuedLost || reasons?.some((reason) => reason.Code === 'TransactionConflict')) {
          return { written: false, current: undefined, conflict: true };
        }
        throw error;
      }
    },

    async enqueue(offeringId, change) {
      try {
        await doc.send(
          new PutCommand({
            TableName,
            Item: queuedItem(offeringId, change),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        // Queued by an earlier try whose answer was lost: the item is never put twice.
        if (!isConditionalCheckFailed(error)) throw error;
      }
      try {
        const result = await doc.send(
          new UpdateCommand({
            TableName,
            Key: lotKey(offeringId),
            UpdateExpression: 'ADD #queued :one REMOVE #last',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#queued': 'queued', '#last': 'last' },
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return result.Attributes?.queued as number | undefined;
      } catch (error) {
        // No lot written yet: its first write finds the queue through its caller, who drains it.
        if (!isConditionalCheckFailed(error)) throw error;
        return undefined;
      }
    },

    async queuedChanges(offeringId, limit, after) {
      const changes: QueuedChange[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression:
              after === undefined
                ? 'pk = :pk AND begins_with(sk, :prefix)'
                : 'pk = :pk AND sk BETWEEN :after AND :end',
            FilterExpression: 'attribute_not_exists(outcome)',
            ExpressionAttributeValues: {
              ':pk': lotPartitionOf(offeringId),
              ...(after === undefined
                ? { ':prefix': QUEUE_PREFIX }
                : {
                    ':after': queuedKey(offeringId, after).sk,
                    // Past every ticket (ULIDs are Crockford base32: digits and capitals).
                    ':end': `${QUEUE_PREFIX}~`,
                  }),
            },
            ConsistentRead: true,
            Limit: limit + 1,
            ExclusiveStartKey: start,
          }),
        );
        changes.push(...(result.Items ?? []).map(queuedOf));
        start = result.LastEvaluatedKey;
      } while (start !== undefined && changes.length <= limit);
      return {
        changes: changes.slice(0, limit),
        complete: changes.length <= limit && start === undefined,
      };
    },

    async queuedTickets(offeringId, limit) {
      const found: { ticket: string; until: number }[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const result = await doc.send(
          new QueryCommand({
            TableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            FilterExpression: 'attribute_not_exists(outcome)',
            ProjectionExpression: 'ticket, #until',
            ExpressionAttributeNames: { '#until': 'until' },
            ExpressionAttributeValues: {
              ':pk': lotPartitionOf(offeringId),
              ':prefix': QUEUE_PREFIX,
            },
            ConsistentRead: true,
            Limit: limit,
            ExclusiveStartKey: start,
          }),
        );
        for (const raw of result.Items ?? []) {
          found.push({ ticket: raw.ticket as string, until: raw.until as number });
        }
        start = result.LastEvaluatedKey;
      } while (start !== undefined && found.length < limit);
      return found.slice(0, limit);
    },

    async queuedOutcome(offeringId, ticket) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: queuedKey(offeringId, ticket), ConsistentRead: true }),
      );
      if (result.Item === undefined) return undefined;
      return (result.Item.outcome as QueuedOutcome | undefined) ?? null;
    },

    async decideQueued(offeringId, decided, version, drained) {
      if (decided.length === 0) return true;
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              // No change of the lot (its version stays): the stream passes it over. A lot not
              // written yet has no count.
              ...(version === 0
                ? []
                : [
                    {
                      Update: {
                        TableName,
                        Key: lotKey(offeringId),
                        UpdateExpression: `ADD dequeued :count${drained === undefined ? '' : ' SET drained = :drained'} REMOVE #last`,
                        ConditionExpression: 'version = :version',
                        ExpressionAttributeNames: { '#last': 'last' },
                        ExpressionAttributeValues: {
                          ':count': decided.length,
                          ':version': version,
                          ...(drained === undefined ? {} : { ':drained': drained }),
                        },
                      },
                    },
                  ]),
              ...decided.map((entry) => outcomeUpdate(TableName, offeringId, entry)),
            ] as never,
          }),
        );
        return true;
      } catch (error) {
        if (isTransactionLost(error)) return false;
        throw error;
      }
    },

    async withdrawQueued(offeringId, ticket) {
      try {
        await doc.send(
          new DeleteCommand({
            TableName,
            Key: queuedKey(offeringId, ticket),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(outcome)',
          }),
        );
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },

    async dropQueued(offeringId, ticket) {
      await doc.send(new DeleteCommand({ TableName, Key: queuedKey(offeringId, ticket) }));
    },

    async getBidders(offeringId, userIds) {
      const keys = [...new Set(userIds)].map((userId) => ({ ...bidderKey(offeringId, userId) }));
      if (keys.length === 0) return [];
      return (await batchGetAll(doc, TableName, keys, { consistent: true })).map(bidderOf);
    },

    async applyChanges(changes) {
      // The log lines, 25 to a request: a line's write is the same whatever the delivery.
      // What followed the line is done with the note: the stored line is the record alone.
      const lines = changes.map(({ lot: { offering_id }, note: { line } }) => {
        const { follow: _follow, ...record } = line;
        return {
          PutRequest: {
            Item: {
              ...bidLogKey(offering_id, line.index),
              type: BID_LOG_TYPE,
              offering_id,
              ...record,
            },
          },
        };
      });
      await batchWriteAll(doc, TableName, lines);
      // Each entry once, at its newest change of the batch; never back to an older one, and
      // never after the close settled it.
      const newest = new Map<
        string,
        { offering_id: string; version: number; entry: NonNullable<LotChangeNote['entry']> }
      >();
      for (const {
        lot: { offering_id },
        note,
      } of changes) {
        if (note.entry === undefined) continue;
        const slot = `${offering_id}\n${note.entry.bidder_id}`;
        const known = newest.get(slot);
        if (known === undefined || known.version < note.version) {
          newest.set(slot, { offering_id, version: note.version, entry: note.entry });
        }
      }
      for (const { offering_id, version, entry } of newest.values()) {
        const sort = timeSort(entry.last_at, offering_id);
        try {
          await doc.send(
            new UpdateCommand({
              TableName,
              Key: bidderKey(offering_id, entry.bidder_id),
              UpdateExpression:
                'SET standing = :standing, last_at = :at, gsi1sk = :sort, gsi2sk = :sort, lot_version = :lot',
              ConditionExpression:
                'attribute_exists(pk) AND #group = :active AND (attribute_not_exists(lot_version) OR lot_version < :lot)',
              ExpressionAttributeNames: { '#group': 'group' },
              ExpressionAttributeValues: {
                ':standing': entry.standing,
                ':at': entry.last_at,
                ':sort': sort,
                ':lot': version,
                ':active': 'active',
              },
            }),
          );
        } catch (error) {
          // Already as new (a redelivery, or a later write of the entry with its lot).
          if (!isConditionalCheckFailed(error)) throw error;
        }
      }
    },

    async saveLot(lot, expected) {
      const put = { TableName, Item: lotItem(lot), ...lotCondition(expected, lot.queued ?? 0) };
      // The sweeper's list of lots not closed: joined at the open, left at the close.
      const marker =
        lot.phase === 'closed'
          ? { Delete: { TableName, Key: liveMarkerKey(lot.offering_id) } }
          : expected === 0
            ? { Put: { TableName, Item: liveMarker(lot.offering_id, lot.auction.end_at) } }
            : undefined;
      try {
        if (marker === undefined) await doc.send(new PutCommand(put));
        else {
          await doc.send(
            new TransactWriteCommand({ TransactItems: [{ Put: put }, marker] as never }),
          );
        }
        return true;
      } catch (error) {
        // The lot's condition (a marker's write has none), or another writer at that instant.
        if (isConditionalCheckFailed(error) || isTransactionLost(error)) return false;
        throw error;
      }
    },

    async getBidder(offeringId, userId) {
      const result = await doc.send(
        new GetCommand({ TableName, Key: bidderKey(offeringId, userId), ConsistentRead: true }),
      );
      return result.Item === undefined ? undefined : bidderOf(result.Item);
    },

    async biddersOf(offeringId) {
      return (await partitionItems(offeringId, BIDDER_PREFIX)).map(bidderOf);
    },

    async logOf(offeringId) {
      return (await partitionItems(offeringId, BID_LOG_PREFIX)).map((raw) => ({
        index: raw.index as number,
        kind: raw.kind as BidLogLine['kind'],
        bidder_id: raw.bidder_id as string,
        nick: raw.nick as string,
        amount: raw.amount as number,
        max: raw.max as number,
        quantity: raw.quantity as number,
        seq: raw.seq as number,
        at: raw.at as string,
      }));
    },

    async putBidders(records) {
      await batchWriteAll(
        doc,
        TableName,
        records.map((record) => ({ PutRequest: { Item: bidderItem(record) } })),
      );
    },

    async myBids(userId, group, cursor, limit) {
      const index = group === 'any' ? 'gsi1' : 'gsi2';
      const partition =
        group === 'any' ? myBidsPartition(userId) : myBidsGroupPartition(userId, group);
      const scope = `mybids:${userId}:${group}`;
      const result = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: index,
          KeyConditionExpression: `${index}pk = :pk`,
          ExpressionAttributeValues: { ':pk': partition },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: decodeCursor(scope, cursor ?? undefined, [
            'pk',
            'sk',
            `${index}pk`,
            `${index}sk`,
          ]),
        }),
      );
      return {
        items: (result.Items ?? []).map(bidderOf),
        next: encodeCursor(scope, result.LastEvaluatedKey),
      };
    },

    async staleLots(limit) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: 'gsi4',
          KeyConditionExpression: 'gsi4pk = :pk',
          ExpressionAttributeValues: { ':pk': STALE_LOTS_PARTITION },
          Limit: limit,
        }),
      );
      return (result.Items ?? []).map((raw) => raw.gsi4sk as string);
    },

    async clearStale(offeringId, version) {
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                ConditionCheck: {
                  TableName,
                  Key: lotKey(offeringId),
                  // A lot gone leaves nothing to refresh.
                  ConditionExpression:
                    'attribute_not_exists(pk) OR (version = :version AND stale = :false)',
                  ExpressionAttributeValues: { ':version': version, ':false': false },
                },
              },
              { Delete: { TableName, Key: staleMarkerKey(offeringId) } },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (isTransactionLost(error)) return false;
        throw error;
      }
    },

    async dueLots(before, limit) {
      const result = await doc.send(
        new QueryCommand({
          TableName,
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :before',
          ExpressionAttributeValues: { ':pk': LIVE_LOTS_PARTITION, ':before': before },
          Limit: limit,
        }),
      );
      return (result.Items ?? []).map((raw) => raw.offering_id as string);
    },

    async markLive(offeringId, endAt) {
      try {
        await doc.send(
          new PutCommand({
            TableName,
            Item: liveMarker(offeringId, endAt),
            ConditionExpression: 'attribute_not_exists(pk) OR end_at < :end',
            ExpressionAttributeValues: { ':end': endAt },
          }),
        );
      } catch (error) {
        // Already there, at that end or later.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async dropLive(offeringId) {
      await doc.send(new DeleteCommand({ TableName, Key: liveMarkerKey(offeringId) }));
    },

    buyNowPiece(offeringId, quantity) {
      return {
        Update: {
          TableName,
          Key: lotKey(offeringId),
          UpdateExpression: 'SET #a.#c = #a.#c - :q, version = version + :one',
          ConditionExpression: 'phase = :open AND bidders_count = :zero AND #a.#c >= :q',
          ExpressionAttributeNames: { '#a': 'auction', '#c': 'copies' },
          ExpressionAttributeValues: { ':q': quantity, ':one': 1, ':open': 'open', ':zero': 0 },
        },
      };
    },

    async returnBuyNow(offeringId, quantity) {
      try {
        await doc.send(
          new UpdateCommand({
            TableName,
            Key: lotKey(offeringId),
            UpdateExpression: 'SET #a.#c = #a.#c + :q, version = version + :one',
            ConditionExpression: 'phase = :open',
            ExpressionAttributeNames: { '#a': 'auction', '#c': 'copies' },
            ExpressionAttributeValues: { ':q': quantity, ':one': 1, ':open': 'open' },
          }),
        );
      } catch (error) {
        // Closed meanwhile: the offering's end returns unsold copies to the seller.
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    delistGuardPiece(offeringId) {
      return {
        Update: {
          TableName,
          Key: lotKey(offeringId),
          UpdateExpression:
            'SET phase = :closed, #type = :type, version = if_not_exists(version, :zero) + :one REMOVE gsi3pk, gsi3sk',
          ConditionExpression: 'attribute_not_exists(pk) OR bidders_count = :zero',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':closed': 'closed',
            ':type': LOT_TYPE,
            ':zero': 0,
            ':one': 1,
          },
        },
      };
    },
  };
}
