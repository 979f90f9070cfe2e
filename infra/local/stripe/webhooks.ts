/**
 * Webhook deliveries of the Stripe twin: each event POSTed to the endpoint as Stripe sends it
 * (the event as JSON, `Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "<t>.<payload>" with the
 * endpoint secret>`), retried with backoff until a 2xx. Tests can hold deliveries and release them
 * duplicated and reordered, as Stripe may deliver them.
 */
import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import type { Log } from '../support';

/** `Stripe-Signature` for `payload` sent at `timestamp` (seconds), as Stripe computes it. */
export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export interface Delivery {
  eventId: string;
  type: string;
  attempts: number;
  /** `delivered` after a 2xx; `failed` after the last retry; `pending` in between or while held. */
  status: 'pending' | 'delivered' | 'failed';
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

export interface ReleaseOptions {
  /** How the held events go out: as they were sent, reversed, or shuffled. */
  order?: 'sent' | 'reversed' | 'shuffled';
  /** Each held event is delivered this many times (Stripe may deliver an event more than once). */
  copies?: number;
}

/** Delays before the 2nd, 3rd… attempt (Stripe retries for up to three days). */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 3_600_000];

export class WebhookSender {
  private endpoint: WebhookEndpoint | undefined;
  private held: Stripe.Event[] | null = null;
  private readonly heldBy = new Map<string, Stripe.Event[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  readonly deliveries: Delivery[] = [];

  constructor(
    private readonly options: {
      retryDelaysMs: readonly number[];
      now: () => Date;
      log: Log;
      /** After each attempt: the delivery as it now stands (`pending` while retries remain). */
      onChange: (record: Delivery) => void;
    },
  ) {}

  setEndpoint(endpoint: WebhookEndpoint | undefined): void {
    this.endpoint = endpoint;
  }

  get endpointUrl(): string | undefined {
    return this.endpoint?.url;
  }

  /** Sends `event` now (or keeps it while its deliveries are held). */
  send(event: Stripe.Event): void {
    if (this.endpoint === undefined) return;
    const held = this.heldListFor(event);
    if (held !== undefined) {
      held.push(event);
      return;
    }
    this.deliver(event);
  }

  /**
   * Keeps events from now on until `release`: every event, or (with `match`) only those whose
   * JSON contains it, such as a test's own account or customer id, so tests running side by side
   * do not hold each other's events.
   */
  hold(match?: string): void {
    if (match === undefined) this.held ??= [];
    else if (!this.heldBy.has(match)) this.heldBy.set(match, []);
  }

  /** Sends the held events (of `match`), in `order`, `copies` times each, and stops holding. */
  release(options: ReleaseOptions = {}, match?: string): number {
    let events: Stripe.Event[];
    if (match === undefined) {
      events = this.held ?? [];
      this.held = null;
    } else {
      events = this.heldBy.get(match) ?? [];
      this.heldBy.delete(match);
    }
    const copies = Math.max(1, options.copies ?? 1);
    let batch = events.flatMap((event) => Array.from({ length: copies }, () => event));
    if (options.order === 'reversed') batch = batch.reverse();
    if (options.order === 'shuffled') {
      for (let i = batch.length - 1; i > 0; i -= 1) {
        const j = Math.floor(Math.random() * (i + 1));
        [batch[i], batch[j]] = [batch[j] as Stripe.Event, batch[i] as Stripe.Event];
      }
    }
    for (const event of batch) this.deliver(event);
    return batch.length;
  }

  /**
   * Discards the held events (of `match`, or all) for good, as if Stripe's three days of retries
   * had run out: each is recorded as a `failed` delivery, and holding stops. Answers how many.
   */
  drop(match?: string): number {
    let events: Stripe.Event[];
    if (match === undefined) {
      events = this.held ?? [];
      this.held = null;
    } else {
      events = this.heldBy.get(match) ?? [];
      this.heldBy.delete(match);
    }
    for (const event of events) {
      const record: Delivery = {
        eventId: event.id,
        type: event.type,
        attempts: this.options.retryDelaysMs.length + 1,
        status: 'failed',
        lastStatus: null,
        lastError: 'dropped by a test: Stripe stopped retrying after three days',
        deliveredAt: null,
      };
      this.deliveries.push(record);
      this.options.onChange(record);
    }
    return events.length;
  }

  private heldListFor(event: Stripe.Event): Stripe.Event[] | undefined {
    if (this.held !== null) return this.held;
    if (this.heldBy.size === 0) return undefined;
    const json = JSON.stringify(event);
    for (const [match, list] of this.heldBy) if (json.includes(match)) return list;
    return undefined;
  }

  /** Resolves once every delivery under way has answered (retries waiting on a timer excluded). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Delivers again an event a restart interrupted (its delivery was still pending): Stripe keeps
   * retrying for three days whatever happens to the receiver, so the twin's restart must not lose
   * it either. `attempts` already made count towards the backoff.
   */
  resume(event: Stripe.Event, attempts: number): void {
    if (this.endpoint === undefined) return;
    this.deliver(event, attempts);
  }

  private deliver(event: Stripe.Event, attempts = 0): void {
    const record: Delivery = {
      eventId: event.id,
      type: event.type,
      attempts,
      status: 'pending',
      lastStatus: null,
      lastError: null,
      deliveredAt: null,
    };
    this.deliveries.push(record);
    this.attempt(event, record);
  }

  private attempt(event: Stripe.Event, record: Delivery): void {
    const endpoint = this.endpoint;
    if (endpoint === undefined) return;
    const payload = JSON.stringify(event, null, 2);
    const timestamp = Math.floor(this.options.now().getTime() / 1000);
    const run = (async () => {
      record.attempts += 1;
      try {
        const response = await fetch(endpoint.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'stripe-signature': signatureHeader(payload, endpoint.secret, timestamp),
          },
          body: payload,
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        record.lastStatus = response.status;
        record.lastError = null;
        if (response.ok) {
          record.status = 'delivered';
          record.deliveredAt = this.options.now().toISOString();
        }
      } catch (error) {
        record.lastStatus = null;
        record.lastError = error instanceof Error ? error.message : String(error);
      }
      if (record.status !== 'delivered') this.retry(event, record);
      this.options.onChange(record);
    })();
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private retry(event: Stripe.Event, record: Delivery): void {
    const delay = this.options.retryDelaysMs[record.attempts - 1];
    if (delay === undefined) {
      record.status = 'failed';
      this.options.log(
        `[stripe] webhook ${event.type} ${event.id} failed after ${record.attempts} attempts (last: ${record.lastStatus ?? record.lastError})`,
      );
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(event, record);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
