/*
 * Calls a page will make, sent by the entry (main.tsx) before the app's JavaScript has arrived,
 * so the answer is on its way (or here) when the page asks for it. A first visit to a public
 * page otherwise sends its first call only after the app and the page's chunks have downloaded
 * and run: seconds on a phone on a slow network.
 *
 * Only anonymous reads: the entry knows no session, and an answer is handed out only to a call
 * that would carry no token (lib/api.ts). Each answer is taken once, within EARLY_CALL_TTL_MS of
 * being sent; a call that finds none (or an expired one) is sent as usual. No imports: this module
 * is part of the entry chunk.
 */

/** How long an early answer may wait for its call: after that the page sends a fresh one. */
export const EARLY_CALL_TTL_MS = 10_000;

export interface EarlyCall {
  method: 'GET' | 'POST';
  /** The request URL as lib/api.ts builds it (`/api` + path + query). */
  url: string;
  /** The JSON body of a POST (a read the API exposes as a POST). */
  body?: unknown;
}

/** The status and text of an answer, or null when no answer arrived (the page retries itself). */
export type EarlyAnswer = { status: number; text: string } | null;

interface Pending {
  sentAt: number;
  answer: Promise<EarlyAnswer>;
}

const pending = new Map<string, Pending>();

/** Identifies a call by what it asks: method, URL and body. */
export function earlyCallKey(call: EarlyCall): string {
  return `${call.method} ${call.url} ${call.body === undefined ? '' : JSON.stringify(call.body)}`;
}

/** Sends `call` now (once per key) and keeps its answer for the page. */
export function sendEarlyCall(call: EarlyCall, now: () => number = Date.now): Promise<EarlyAnswer> {
  const key = earlyCallKey(call);
  const existing = pending.get(key);
  if (existing) return existing.answer;
  const answer = fetch(call.url, {
    method: call.method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  })
    .then(async (response) => ({ status: response.status, text: await response.text() }))
    .catch(() => null);
  pending.set(key, { sentAt: now(), answer });
  return answer;
}

/**
 * The early answer to `call`, handed out once; undefined when none was sent or it is older than
 * {@link EARLY_CALL_TTL_MS}.
 */
export function takeEarlyAnswer(
  call: EarlyCall,
  now: () => number = Date.now,
): Promise<EarlyAnswer> | undefined {
  const key = earlyCallKey(call);
  const found = pending.get(key);
  if (!found) return undefined;
  pending.delete(key);
  return now() - found.sentAt <= EARLY_CALL_TTL_MS ? found.answer : undefined;
}

/** Forgets every early call (tests). */
export function clearEarlyCalls(): void {
  pending.clear();
}
