import type { SavedCard } from '@shared/schemas/payments';
import { vi } from 'vitest';
import { jsonResponse } from './utils';

export function savedCardFixture(overrides: Partial<SavedCard> = {}): SavedCard {
  return {
    id: 'pm_visa',
    brand: 'visa',
    funding: 'credit',
    last4: '4242',
    exp_month: 4,
    exp_year: 2031,
    created: '2026-03-12T10:00:00.000Z',
    default: true,
    expired: false,
    ...overrides,
  };
}

/** The window `window.open` answers in tests: records where it was sent and whether it closed. */
export function fakeWindow() {
  return {
    location: { replace: vi.fn() },
    close: vi.fn(),
    closed: false,
  };
}

/** A stand-in for the browser's WebSocket: tests push server messages with `receive`. */
export class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  /** What the client sent (ping, subscribe, unsubscribe), as sent. */
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  /** The server accepted the connection. */
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  /** Sends `message` to every open socket (each listener opens its own). */
  static broadcast(message: unknown) {
    for (const socket of FakeSocket.all) if (socket.readyState !== 3) socket.receive(message);
  }
}

/** An API answer `{ data }`, and an API error with its code (the payments tests' fetch mocks). */
export const ok = (data: unknown) => jsonResponse({ data });
export const failure = (code: string, status: number) =>
  jsonResponse({ error: { code, message: code, requestId: 't' } }, status);

/** The payment-gateway calls the web makes (functions/payments/payments.routes.ts). */
const GATEWAY = '/api/payment-gateway';
export const PAYMENT_CALLS = {
  check: `${GATEWAY}/onboarding-minter/check`,
  begin: `${GATEWAY}/onboarding-minter/begin`,
  refresh: `${GATEWAY}/onboarding-minter/refresh`,
  list: `${GATEWAY}/payment-methods`,
  setup: `${GATEWAY}/create-setup-intent`,
  remove: `${GATEWAY}/remove-payment-method`,
  makeDefault: `${GATEWAY}/default-payment-method`,
} as const;
