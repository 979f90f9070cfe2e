import { createHash } from 'node:crypto';

/**
 * Provenance of a copy (issue 4 item 6): every ownership event is appended as an immutable record
 * that carries the hash of the copy's previous record, and the copy itself keeps the hash of its
 * newest record (`head`). Editing any past record changes its hash, which no longer matches the
 * `prev_hash` of the record after it; editing the newest one (even recomputing its hash) no longer
 * matches the copy's head. `verifyHistory` finds the first such break.
 *
 * Pure: hashing is SHA-256 over a canonical JSON rendering (sorted keys, no whitespace), so the
 * same record hashes the same in every runtime.
 */

/** `refunded`: a sale was cancelled and refunded; the copy went back to its seller (issue 12). */
export const PROVENANCE_EVENTS = ['minted', 'transferred', 'sold', 'refunded', 'redeemed'] as const;
export type ProvenanceEvent = (typeof PROVENANCE_EVENTS)[number];

/** The previous hash of a copy's first record. */
export const GENESIS_HASH = '0'.repeat(64);

/** What an event says; the chain fields are added by `appendRecord`. */
export interface ProvenanceFacts {
  event: ProvenanceEvent;
  /** The owner before the event; null when minted. */
  from_id: string | null;
  from_nick: string | null;
  to_id: string;
  to_nick: string;
  /** ISO-8601. */
  at: string;
  /** What caused it (an order id, a transfer id), when there is one. */
  ref: string | null;
  /** A sale's price per copy (minor units) and currency; absent for other events. */
  price?: { amount: number; currency: string } | null;
}

export interface ProvenanceRecord extends ProvenanceFacts {
  nftuniqueid: string;
  /** 1 for the first record of a copy, then +1. */
  seq: number;
  prev_hash: string;
  hash: string;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash of a record: every field but `hash` itself. */
export function recordHash(record: Omit<ProvenanceRecord, 'hash'>): string {
  const body: Json = {
    nftuniqueid: record.nftuniqueid,
    seq: record.seq,
    prev_hash: record.prev_hash,
    event: record.event,
    from_id: record.from_id,
    from_nick: record.from_nick,
    to_id: record.to_id,
    to_nick: record.to_nick,
    at: record.at,
    ref: record.ref,
    // Only sales carry a price: records written before prices hash as they always did.
    ...(record.price === undefined || record.price === null
      ? {}
      : { price: { amount: record.price.amount, currency: record.price.currency } }),
  };
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * The record that follows `previous` (undefined for the first one, which must be `minted`).
 * Throws on an event that cannot follow: a copy is minted once, and nothing follows `redeemed`.
 */
export function appendRecord(
  nftuniqueid: string,
  previous: ProvenanceRecord | undefined,
  facts: ProvenanceFacts,
): ProvenanceRecord {
  if (previous === undefined && facts.event !== 'minted') {
    throw new Error(`The first record of ${nftuniqueid} must be 'minted', not '${facts.event}'`);
  }
  if (previous !== undefined) {
    if (facts.event === 'minted') throw new Error(`${nftuniqueid} is already minted`);
    if (previous.event === 'redeemed') throw new Error(`${nftuniqueid} is redeemed`);
    if (previous.nftuniqueid !== nftuniqueid)
      throw new Error('The previous record is of another copy');
    if (facts.from_id !== previous.to_id) {
      throw new Error(
        `${nftuniqueid} is owned by ${previous.to_id}, not ${facts.from_id ?? 'nobody'}`,
      );
    }
  }
  const unsigned = {
    ...facts,
    nftuniqueid,
    seq: previous === undefined ? 1 : previous.seq + 1,
    prev_hash: previous === undefined ? GENESIS_HASH : previous.hash,
  };
  return { ...unsigned, hash: recordHash(unsigned) };
}

export type HistoryVerdict =
  | { ok: true; length: number }
  | {
      ok: false;
      /** Index in the list of the first record that does not hold. */
      index: number;
      reason: 'copy' | 'sequence' | 'hash' | 'link' | 'head' | 'empty';
    };

/**
 * Verifies a copy's history (oldest first) against the copy's head hash: each record's own hash,
 * its link to the one before, the sequence, and the newest hash against the head.
 */
export function verifyHistory(
  nftuniqueid: string,
  records: readonly ProvenanceRecord[],
  head: string,
): HistoryVerdict {
  if (records.length === 0) return { ok: false, index: 0, reason: 'empty' };
  let previousHash = GENESIS_HASH;
  for (const [index, record] of records.entries()) {
    if (record.nftuniqueid !== nftuniqueid) return { ok: false, index, reason: 'copy' };
    if (record.seq !== index + 1) return { ok: false, index, reason: 'sequence' };
    const { hash, ...unsigned } = record;
    if (recordHash(unsigned) !== hash) return { ok: false, index, reason: 'hash' };
    if (record.prev_hash !== previousHash) return { ok: false, index, reason: 'link' };
    previousHash = hash;
  }
  if (previousHash !== head) return { ok: false, index: records.length - 1, reason: 'head' };
  return { ok: true, length: records.length };
}
