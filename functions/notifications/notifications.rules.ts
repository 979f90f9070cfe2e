import { decodeTime } from 'ulid';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  EMAIL_GROUPS,
  emailGroupOf,
  NOTIFICATION_SECTIONS,
  type EmailGroup,
  type NotificationActivity,
  type NotificationPreferences,
  type NotificationSection,
  type UnreadCounters,
} from '../../shared/schemas/notifications';

/**
 * The notification rules of spec 001 §4, as pure functions (no I/O, no clock).
 *
 * Reading: a notification goes from unread to read (hover, swipe, opening it, mark all) and can be
 * set back to unread. "Mark all" is one write whatever the number of notifications: it moves the
 * user's read watermark (`read_before`, the newest notification id at that moment) and starts a
 * new read epoch. A notification at or before the watermark is read unless it was explicitly set
 * in the current epoch (then its own `read` says); a newer one says itself.
 *
 * Counters count only unread (001 §4), per section (the activity's `section_` prefix); connection,
 * message and room kinds (their own counters: requests, messages, myRooms, invitations) are off in
 * this deployment.
 */

export interface ReadWatermark {
  /** The newest notification id when the user last marked all read. */
  read_before?: string;
  /** The id of that mark-all. */
  read_epoch?: string;
}

export interface ReadFields {
  id: string;
  read: boolean;
  /** The read epoch current when `read` was last set explicitly. */
  read_epoch?: string;
}

export function effectiveRead(item: ReadFields, watermark: ReadWatermark): boolean {
  if (watermark.read_before === undefined || item.id > watermark.read_before) return item.read;
  return item.read_epoch === watermark.read_epoch ? item.read : true;
}

/** What setting `requested` on a notification that is `current` does to the unread counters. */
export function readChange(
  current: boolean,
  requested: boolean,
): { changed: boolean; delta: number } {
  if (current === requested) return { changed: false, delta: 0 };
  return { changed: true, delta: requested ? -1 : 1 };
}

/** The counter a notification counts in while unread. */
export function counterSectionOf(activity: NotificationActivity): NotificationSection {
  return activity.slice(0, activity.indexOf('_')) as NotificationSection;
}

export const UNREAD_ATTRIBUTE = 'unread';
export function sectionAttribute(section: NotificationSection): string {
  return `unread_${section}`;
}

const nonNegative = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

/** The counters kept on the user's state item (absent: nothing unread yet). */
export function countersOf(state: Record<string, unknown> | undefined): UnreadCounters {
  const sections = Object.fromEntries(
    NOTIFICATION_SECTIONS.map((section) => [
      section,
      nonNegative(state?.[sectionAttribute(section)]),
    ]),
  ) as UnreadCounters['sections'];
  return {
    unread: nonNegative(state?.[UNREAD_ATTRIBUTE]),
    version: nonNegative(state?.version),
    sections,
  };
}

export function emailAttribute(group: EmailGroup): string {
  return `email_${group}`;
}

/** The user's e-mail preferences: what they chose, the defaults for the rest. */
export function preferencesOf(state: Record<string, unknown> | undefined): NotificationPreferences {
  const email = { ...DEFAULT_NOTIFICATION_PREFERENCES.email };
  for (const group of EMAIL_GROUPS) {
    const value = state?.[emailAttribute(group)];
    if (typeof value === 'boolean') email[group] = value;
  }
  return { email };
}

/** The group an activity is e-mailed under, when the user has that group on; else null. */
export function emailGroupFor(
  activity: NotificationActivity,
  preferences: NotificationPreferences,
): EmailGroup | null {
  const group = emailGroupOf(activity);
  return group !== null && preferences.email[group] ? group : null;
}

/** The time (ms) a ULID encodes (0 for something that is not one). */
export function ulidTime(id: string): number {
  try {
    return decodeTime(id);
  } catch {
    return 0;
  }
}

/**
 * The time a new notification's id must have: after the watermark's (clocks of two functions may
 * disagree by a few ms, and a notification committed after a mark-all must count as unread).
 */
export function idTimeAfter(now: Date, watermark: string | undefined): Date {
  if (watermark === undefined) return now;
  const after = ulidTime(watermark) + 1;
  return after > now.getTime() ? new Date(after) : now;
}
