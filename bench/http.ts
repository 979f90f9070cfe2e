import type { ListingContract, ListingProgress, OfferingDetail } from '../shared/schemas/offerings';

/**
 * What the benches do over the twin's HTTP gateway, as a client would: read an answer's data,
 * send a bearer token, post a hosted page's form (the Stripe twin's), wait for a state, and list
 * an offering through the API until support has approved it.
 */
export const HOUR = 3_600_000;

export async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

export const bearer = (token: string) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${token}`,
});

/** Posts a hosted page's form (no redirect followed); answers where it redirects to. */
export async function submitForm(url: string, fields: Record<string, string>): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.headers.get('location') ?? '';
}

/** Polls every 5 ms until `read` is true; throws after `ms`. */
export async function waitFor(read: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await read())) {
    if (Date.now() > deadline) throw new Error(`not there in ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Caller {
  id: string;
  token: string;
}

/**
 * Lists an offering through the API (offering/create with an idempotency key), waits for its
 * listing to finish, has support approve it, and waits until it is validated.
 */
export async function listApproved(
  api: string,
  parties: { seller: Caller; admin: Caller },
  offering: ListingContract,
  key: string,
): Promise<string> {
  const { seller, admin } = parties;
  const progress = await json<ListingProgress>(
    await fetch(`${api}/api/users/${seller.id}/offering/create`, {
      method: 'POST',
      headers: { ...bearer(seller.token), 'idempotency-key': key },
      body: JSON.stringify({ offering }),
    }),
  );
  const offeringId = progress.offeringId;
  await waitFor(async () => {
    const status = await json<ListingProgress>(
      await fetch(`${api}/api/users/${seller.id}/offering/create/status`, {
        method: 'POST',
        headers: bearer(seller.token),
        body: JSON.stringify({ offeringId }),
      }),
    );
    if (status.step === 'error') {
      throw new Error(`listing ${offeringId} stopped: ${status.error ?? 'no error code'}`);
    }
    return status.step === 'done';
  });
  await json(
    await fetch(`${api}/api/admin/offerings/${offeringId}/validate`, {
      method: 'POST',
      headers: bearer(admin.token),
      body: JSON.stringify({ decision: 'approve' }),
    }),
  );
  await waitFor(async () => {
    const detail = await json<OfferingDetail>(
      await fetch(`${api}/api/users/${seller.id}/offering/getofferingbyid/${offeringId}`, {
        method: 'POST',
        headers: bearer(seller.token),
        body: JSON.stringify({}),
      }),
    );
    return detail.status === 'validated';
  });
  return offeringId;
}
