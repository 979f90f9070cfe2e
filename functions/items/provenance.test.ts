import { describe, expect, it } from 'vitest';
import {
  appendRecord,
  canonicalJson,
  GENESIS_HASH,
  recordHash,
  verifyHistory,
  type ProvenanceFacts,
  type ProvenanceRecord,
} from './provenance';

const COPY = '01JCOPY0000000000000000001';
const minted: ProvenanceFacts = {
  event: 'minted',
  from_id: null,
  from_nick: null,
  to_id: 'u-ana',
  to_nick: 'ana',
  at: '2026-11-22T10:00:00.000Z',
  ref: null,
};

/** minted to ana → sold to bob → transferred to carla → redeemed by carla. */
function history(): ProvenanceRecord[] {
  const first = appendRecord(COPY, undefined, minted);
  const second = appendRecord(COPY, first, {
    event: 'sold',
    from_id: 'u-ana',
    from_nick: 'ana',
    to_id: 'u-bob',
    to_nick: 'bob',
    at: '2026-11-23T10:00:00.000Z',
    ref: 'order-1',
  });
  const third = appendRecord(COPY, second, {
    event: 'transferred',
    from_id: 'u-bob',
    from_nick: 'bob',
    to_id: 'u-carla',
    to_nick: 'carla',
    at: '2026-11-24T10:00:00.000Z',
    ref: null,
  });
  const fourth = appendRecord(COPY, third, {
    event: 'redeemed',
    from_id: 'u-carla',
    from_nick: 'carla',
    to_id: 'u-carla',
    to_nick: 'carla',
    at: '2026-11-25T10:00:00.000Z',
    ref: 'order-2',
  });
  return [first, second, third, fourth];
}

const headOf = (records: ProvenanceRecord[]) => records.at(-1)?.hash ?? '';

describe('provenance hash chain', () => {
  it('chains each record to the previous one from the genesis hash', () => {
    const records = history();
    expect(records.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(records[0]?.prev_hash).toBe(GENESIS_HASH);
    for (let index = 1; index < records.length; index += 1) {
      expect(records[index]?.prev_hash).toBe(records[index - 1]?.hash);
    }
    expect(new Set(records.map((record) => record.hash)).size).toBe(4);
    expect(verifyHistory(COPY, records, headOf(records))).toEqual({ ok: true, length: 4 });
  });

  it('hashes canonically: key order does not matter, every field does', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
    const [first] = history() as [ProvenanceRecord];
    const { hash, ...unsigned } = first;
    const reordered = Object.fromEntries(Object.entries(unsigned).reverse()) as typeof unsigned;
    expect(recordHash(reordered)).toBe(hash);
    expect(recordHash({ ...unsigned, at: '2026-11-22T10:00:00.001Z' })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });

  // Editing any past record is detected: each field of each record, with or without recomputing
  // the edited record's own hash (a careful forger recomputes it).
  const fields = ['event', 'from_id', 'to_id', 'to_nick', 'at', 'ref'] as const;
  const cases = [0, 1, 2, 3].flatMap((index) =>
    fields.flatMap((field) => [
      { index, field, rehash: false },
      { index, field, rehash: true },
    ]),
  );
  it.each(cases)('detects an edit of record $index field $field (rehash: $rehash)', (edit) => {
    const records = history();
    const head = headOf(records);
    const original = records[edit.index] as ProvenanceRecord;
    const value = original[edit.field];
    const forged: ProvenanceRecord = {
      ...original,
      [edit.field]:
        edit.field === 'event' ? (value === 'sold' ? 'transferred' : 'sold') : `${value ?? ''}x`,
    };
    if (edit.rehash) {
      const { hash: _old, ...unsigned } = forged;
      forged.hash = recordHash(unsigned);
    }
    records[edit.index] = forged;
    const verdict = verifyHistory(COPY, records, head);
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    if (!edit.rehash) {
      expect(verdict).toEqual({ ok: false, index: edit.index, reason: 'hash' });
    } else if (edit.index < records.length - 1) {
      expect(verdict).toEqual({ ok: false, index: edit.index + 1, reason: 'link' });
    } else {
      expect(verdict).toEqual({ ok: false, index: edit.index, reason: 'head' });
    }
  });

  it.each([
    ['a removed record', (records: ProvenanceRecord[]) => records.splice(1, 1), 'sequence'],
    ['swapped records', (records: ProvenanceRecord[]) => records.reverse(), 'sequence'],
    ['a dropped newest record', (records: ProvenanceRecord[]) => records.pop(), 'head'],
    [
      "another copy's record",
      (records: ProvenanceRecord[]) => {
        records[1] = { ...(records[1] as ProvenanceRecord), nftuniqueid: 'other' };
      },
      'copy',
    ],
    ['no records', (records: ProvenanceRecord[]) => records.splice(0), 'empty'],
  ] as const)('detects %s', (_case, tamper, reason) => {
    const records = history();
    const head = headOf(records);
    tamper(records);
    expect(verifyHistory(COPY, records, head)).toMatchObject({ ok: false, reason });
  });

  it.each([
    ['a first record that is not minted', undefined, { ...minted, event: 'sold' as const }],
    ['a second mint', 'first', minted],
    [
      'an event from someone who does not own it',
      'first',
      { ...minted, event: 'sold' as const, from_id: 'u-eve' },
    ],
    [
      'anything after redeemed',
      'last',
      { ...minted, event: 'transferred' as const, from_id: 'u-carla' },
    ],
  ] as const)('refuses to append %s', (_case, after, facts) => {
    const records = history();
    const previous = after === undefined ? undefined : after === 'first' ? records[0] : records[3];
    expect(() => appendRecord(COPY, previous, facts)).toThrow();
  });
});
