import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

/** A new entity id: a ULID (sortable by creation time, 26 characters). */
export function newId(now: Date = new Date()): string {
  return ulid(now.getTime());
}

/** Offering ids keep the spec's 'oF' prefix (000 §3), which tells them apart from item ids. */
export function newOfferingId(now: Date = new Date()): string {
  return `oF${ulid(now.getTime())}`;
}

/** Order ids: `oR` + a ULID (issue 12), told apart from offerings and items. */
export function newOrderId(now: Date = new Date()): string {
  return `oR${ulid(now.getTime())}`;
}
