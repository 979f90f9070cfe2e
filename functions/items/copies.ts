import { DomainError } from '../core/errors';
import type { CopyRecord, ItemRecord } from './items';
import type { ItemsRepo } from './items.repo';

/**
 * Copies taken by offerings (issue 11): what another domain may do with an item's copies. A copy
 * is in at most one offering: it moves `available` → `blocked` (with the offering's id) by one
 * conditional update, and only that offering gives it back. Everything here is idempotent, so a
 * retried workflow task repeats it safely.
 */
export type CopiesRepo = Pick<ItemsRepo, 'getItem' | 'listCopies' | 'lockCopy' | 'unlockCopy'>;

/** An item's copies, all of them (at most 200: one or two Query pages). */
export async function allCopies(
  repo: Pick<CopiesRepo, 'listCopies'>,
  itemId: string,
): Promise<CopyRecord[]> {
  const copies: CopyRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.listCopies(itemId, cursor, 200);
    copies.push(...page.items);
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  return copies;
}

/** The finished item, or 404 `market.product.errors.not_found`-like `not_found`. */
export async function listableItem(repo: CopiesRepo, itemId: string): Promise<ItemRecord> {
  const item = await repo.getItem(itemId);
  if (item === undefined || item.status !== 'done') {
    throw new DomainError('not_found', { message: 'No such item.' });
  }
  return item;
}

export interface OwnedCopies {
  /** Owned and free to list. */
  free: number;
  /** Owned tickets with a QR code (never listable). */
  qr: number;
  /** Owned in total. */
  owned: number;
}

export function ownedCopies(copies: readonly CopyRecord[], ownerId: string): OwnedCopies {
  let free = 0;
  let qr = 0;
  let owned = 0;
  for (const copy of copies) {
    if (copy.owner_id !== ownerId) continue;
    owned += 1;
    if (copy.qr === true) qr += 1;
    else if (copy.status === 'available') free += 1;
  }
  return { free, qr, owned };
}

/**
 * The offering's copies an order may book now: held by the offering, not booked, or booked by a
 * booking that ended (`booked_until` passed) — in serial order.
 */
export function bookableCopies(
  copies: readonly CopyRecord[],
  offeringId: string,
  now: Date,
): CopyRecord[] {
  const at = now.toISOString();
  return copies.filter(
    (copy) =>
      copy.status === 'blocked' &&
      copy.offering_id === offeringId &&
      (copy.order_id === undefined || (copy.booked_until ?? '') < at),
  );
}

/** The serials an offering holds now (blocked for it). */
export function heldSerials(copies: readonly CopyRecord[], offeringId: string): number[] {
  return copies
    .filter((copy) => copy.status === 'blocked' && copy.offering_id === offeringId)
    .map((copy) => copy.serial);
}

/**
 * One pack of the reservation: locks up to `pack` more free copies of `ownerId` for the offering,
 * in parallel, each by its own conditional update (a copy taken meanwhile by another offering is
 * skipped). Answers how many the offering holds after the pack and whether no free copy is left
 * to try.
 */
export async function lockPack(
  repo: CopiesRepo,
  input: { itemId: string; ownerId: string; offeringId: string; want: number; pack: number },
): Promise<{ held: number; exhausted: boolean }> {
  const copies = await allCopies(repo, input.itemId);
  const held = heldSerials(copies, input.offeringId).length;
  const missing = input.want - held;
  if (missing <= 0) return { held, exhausted: false };
  const candidates = copies.filter(
    (copy) => copy.owner_id === input.ownerId && copy.status === 'available' && copy.qr !== true,
  );
  const tried = candidates.slice(0, Math.min(missing, input.pack));
  const locked = await Promise.all(
    tried.map((copy) => repo.lockCopy(input.itemId, copy.serial, input.ownerId, input.offeringId)),
  );
  const gained = locked.filter(Boolean).length;
  return {
    held: held + gained,
    exhausted: tried.length === candidates.length && held + gained < input.want,
  };
}

/**
 * Gives back up to `pack` copies the offering holds; `keep` copies stay blocked (the offering
 * goes on with fewer, e.g. it asked for 10 and the seller confirmed 7: none to give back). Answers
 * how many it still holds beyond `keep`.
 */
export async function unlockPack(
  repo: CopiesRepo,
  input: { itemId: string; offeringId: string; keep: number; pack: number },
): Promise<{ remaining: number }> {
  const copies = await allCopies(repo, input.itemId);
  // Copies booked for an order are the order's to give back (its booking ends or it is sold);
  // a booking whose time passed no longer holds them.
  const now = new Date().toISOString();
  const held = copies
    .filter(
      (copy) =>
        copy.status === 'blocked' &&
        copy.offering_id === input.offeringId &&
        (copy.order_id === undefined || (copy.booked_until ?? '') < now),
    )
    .map((copy) => copy.serial);
  const extra = held.slice(input.keep);
  const batch = extra.slice(0, input.pack);
  await Promise.all(
    batch.map((serial) => repo.unlockCopy(input.itemId, serial, input.offeringId, now)),
  );
  return { remaining: extra.length - batch.length };
}
