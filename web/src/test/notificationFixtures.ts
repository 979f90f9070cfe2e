import type {
  Notification,
  NotificationActivity,
  UnreadCounters,
} from '@shared/schemas/notifications';
import { sectionOf } from '@shared/schemas/notifications';

export function notificationFixture(
  overrides: Partial<Notification> & { activity?: NotificationActivity } = {},
): Notification {
  const activity = overrides.activity ?? 'market_bidcreated';
  const itemmarket = overrides.itemmarket === undefined ? 'item-1' : overrides.itemmarket;
  return {
    id: 'n-1',
    sourceid: 'seller-1',
    destinationid: 'user-1',
    read: false,
    createdat: Date.now() - 60_000,
    type: sectionOf(activity),
    access: 'private',
    payload: {
      itemName: 'Blue Vase',
      sourcenick: 'lumen',
      ...(itemmarket ? { itemmarket } : {}),
    },
    ...overrides,
    activity,
    itemmarket,
  };
}

/** Counters as the server sends them; `version` grows with each change (0 unless a test orders). */
export function countersFixture(
  unread: number,
  sections: Partial<UnreadCounters['sections']> = {},
  version = 0,
) {
  return {
    unread,
    version,
    sections: { minter: 0, update: 0, asset: 0, market: unread, ...sections },
  } satisfies UnreadCounters;
}

/** A stand-in for IntersectionObserver: tests say when the observed end comes into view. */
export class FakeIntersectionObserver {
  static all: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.disconnected = true;
    this.targets.clear();
  }
  takeRecords() {
    return [];
  }
  /** Every live observer reports its targets in view. */
  static reveal() {
    for (const observer of FakeIntersectionObserver.all) {
      if (observer.disconnected) continue;
      const entries = [...observer.targets].map(
        (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
      );
      if (entries.length > 0) {
        observer.callback(entries, observer as unknown as IntersectionObserver);
      }
    }
  }
}
