import { beforeAll, describe, expect, it } from 'vitest';
import { useTwinEnv } from '../../infra/local/test/twin-context';
import { newId } from '../core/ids';
import type { Address, AddressList, DeletedAddress } from '../../shared/schemas/addresses';
import { call, hasCognito, newUser, type TestUser } from '../accounts/testing/session';

/**
 * Addresses through the local gateway with real access tokens from the twin's local Cognito:
 * CRUD, exactly one default, the 20-address limit and the path rule (another user's id → 403).
 */
const RUN = `a${Date.now().toString(36)}`;
let enabled = false;
let a: TestUser;
let b: TestUser;

const ADDRESS = {
  country: 'gb',
  fullname: 'Jo Bloggs',
  line1: '1 High Street',
  postalcode: 'SW1A 1AA',
  city: 'London',
  stateprovince: 'Greater London',
};

const add = (user: TestUser, address: unknown, owner = user.id) =>
  call<Address>('POST', `/api/users/${owner}/addaddress`, {
    token: user.accessToken,
    body: { address },
  });
const list = (user: TestUser, owner = user.id) =>
  call<AddressList>('GET', `/api/users/${owner}/addresses`, { token: user.accessToken });
const update = (user: TestUser, addressId: string, address: unknown, owner = user.id) =>
  call<Address>('PUT', `/api/users/${owner}/updateaddress/${addressId}`, {
    token: user.accessToken,
    body: { address },
  });
const remove = (user: TestUser, addressId: string, owner = user.id) =>
  call<DeletedAddress>('DELETE', `/api/users/${owner}/deleteaddress/${addressId}`, {
    token: user.accessToken,
  });

beforeAll(async () => {
  useTwinEnv();
  enabled = hasCognito();
  if (!enabled) return;
  [a, b] = await Promise.all([newUser(RUN), newUser(RUN)]);
});

describe('users/{id}/…address (real tokens from the local Cognito endpoint)', () => {
  it('refuses guests with 401', async () => {
    expect((await call('GET', `/api/users/${newId()}/addresses`)).status).toBe(401);
    expect(
      (await call('POST', `/api/users/${newId()}/addaddress`, { body: { address: ADDRESS } }))
        .status,
    ).toBe(401);
  });

  it('adds, lists, updates and deletes with exactly one default', async (context) => {
    if (!enabled) context.skip();
    const first = await add(a, ADDRESS);
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({ country: 'GB', default: true, line2: null });
    const second = await add(a, { ...ADDRESS, city: 'Leeds', instructions: 'Back door' });
    expect(second.json.data).toMatchObject({ default: false, instructions: 'Back door' });

    const moved = await update(a, second.json.data.id, { ...ADDRESS, city: 'York', default: true });
    expect(moved.status).toBe(200);
    expect(moved.json.data).toMatchObject({ city: 'York', default: true });
    let listed = (await list(a)).json.data.items;
    expect(listed.map((item) => [item.id, item.default])).toEqual([
      [second.json.data.id, true],
      [first.json.data.id, false],
    ]);

    const deleted = await remove(a, second.json.data.id);
    expect(deleted.json.data).toEqual({
      deleted: second.json.data.id,
      default: first.json.data.id,
    });
    listed = (await list(a)).json.data.items;
    expect(listed.map((item) => [item.id, item.default])).toEqual([[first.json.data.id, true]]);

    const gone = await remove(a, second.json.data.id);
    expect(gone.status).toBe(404);
    expect(gone.json.error.code).toBe('addresses.errors.not_found');
    expect((await update(a, newId(), ADDRESS)).status).toBe(404);
    expect((await remove(a, first.json.data.id)).json.data).toEqual({
      deleted: first.json.data.id,
      default: null,
    });
  });

  it('names every failing field with its code', async (context) => {
    if (!enabled) context.skip();
    const answer = await add(a, { country: 'XX', fullname: ' ', line2: 'x'.repeat(201) });
    expect(answer.status).toBe(400);
    expect(answer.json.error.fields).toEqual({
      'address.country': 'forms.validation.country',
      'address.fullname': 'forms.validation.required',
      'address.line1': 'forms.validation.required',
      'address.line2': 'forms.validation.too_big',
      'address.postalcode': 'forms.validation.required',
      'address.city': 'forms.validation.required',
      'address.stateprovince': 'forms.validation.required',
    });
  });

  it("keeps another user's addresses out of reach (403 by the path, 404 by the id)", async (context) => {
    if (!enabled) context.skip();
    const mine = (await add(a, ADDRESS)).json.data;
    for (const answer of [
      await list(b, a.id),
      await add(b, ADDRESS, a.id),
      await update(b, mine.id, ADDRESS, a.id),
      await remove(b, mine.id, a.id),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.json.error.code).toBe('forbidden');
    }
    expect((await update(b, mine.id, ADDRESS)).status).toBe(404);
    expect((await remove(b, mine.id)).status).toBe(404);
    expect((await list(b)).json.data.items).toEqual([]);
    expect((await list(a)).json.data.items).toEqual([mine]);
  });

  it('holds at most 20 addresses and one default under concurrent adds', async (context) => {
    if (!enabled) context.skip();
    const user = await newUser(RUN);
    const answers = await Promise.all(
      Array.from({ length: 22 }, (_, index) => add(user, { ...ADDRESS, line1: `${index} Road` })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => [answer.status, answer.json.error.code])).toEqual([
      [400, 'addresses.errors.limit'],
      [400, 'addresses.errors.limit'],
    ]);
    const items = (await list(user)).json.data.items;
    expect(items).toHaveLength(20);
    expect(items.filter((item) => item.default)).toHaveLength(1);
  });
});
