import { describe, expect, it } from 'vitest';
import { requirePathOwner } from '../core/http';
import { DomainError } from '../core/errors';
import { addressInputSchema } from '../../shared/schemas/addresses';
import { addAddress, deleteAddress, listAddresses, MAX_ATTEMPTS, updateAddress } from './addresses';
import { fakeAddressesRepo } from './addresses.fake';

const NOW = new Date('2026-03-01T10:00:00Z');
const ADDRESS = addressInputSchema.parse({
  country: 'GB',
  fullname: 'Jo Bloggs',
  line1: '1 High Street',
  postalcode: 'SW1A 1AA',
  city: 'London',
  stateprovince: 'Greater London',
});

function deps() {
  const fake = fakeAddressesRepo();
  let counter = 0;
  return {
    fake,
    deps: {
      repo: fake.repo,
      newId: () => `A${String((counter += 1)).padStart(3, '0')}`,
      sleep: async () => {},
    },
  };
}

describe('address use cases', () => {
  it('add, list, update, delete keep exactly one default', async () => {
    const { fake, deps: d } = deps();
    const first = await addAddress(d, { userId: 'u', address: ADDRESS }, NOW);
    const second = await addAddress(
      d,
      { userId: 'u', address: ADDRESS },
      new Date(NOW.getTime() + 1000),
    );
    expect([first.default, second.default]).toEqual([true, false]);
    await updateAddress(
      d,
      { userId: 'u', addressId: second.id, address: { ...ADDRESS, default: true } },
      NOW,
    );
    let list = await listAddresses(d, { userId: 'u' });
    expect(list.items.map((item) => [item.id, item.default])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    expect(await deleteAddress(d, { userId: 'u', addressId: second.id })).toEqual({
      deleted: second.id,
      default: first.id,
    });
    list = await listAddresses(d, { userId: 'u' });
    expect(list.items.map((item) => [item.id, item.default])).toEqual([[first.id, true]]);
    expect(fake.addresses('u').filter((item) => item.default)).toHaveLength(1);
  });

  it('re-plans after a concurrent change of the same book', async () => {
    const { fake, deps: d } = deps();
    fake.race();
    await addAddress(d, { userId: 'u', address: ADDRESS }, NOW);
    expect(fake.calls).toEqual(['load', 'commit', 'load', 'commit']);
  });

  it('gives up with unavailable when every attempt loses', async () => {
    const { fake, deps: d } = deps();
    const repo = { ...fake.repo, commit: async () => 'stale' as const };
    await expect(
      addAddress({ ...d, repo }, { userId: 'u', address: ADDRESS }, NOW),
    ).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(MAX_ATTEMPTS).toBeGreaterThan(1);
  });

  it("keeps users' books apart: another user's address id is 404", async () => {
    const { deps: d } = deps();
    const mine = await addAddress(d, { userId: 'a', address: ADDRESS }, NOW);
    await expect(
      updateAddress(d, { userId: 'b', addressId: mine.id, address: ADDRESS }, NOW),
    ).rejects.toMatchObject({ code: 'addresses.errors.not_found' });
    await expect(deleteAddress(d, { userId: 'b', addressId: mine.id })).rejects.toMatchObject({
      code: 'addresses.errors.not_found',
    });
  });
});

describe('the owner option (requirePathOwner, core/http.ts)', () => {
  const auth = { userId: 'me', email: undefined, groups: [], claims: {} };
  it.each([
    ['the caller', auth, 'me', 'me'],
    ['another user', auth, 'someone', 'forbidden'],
    ['a guest', null, 'me', 'unauthenticated'],
  ] as const)('%s', (_name, caller, pathId, expected) => {
    try {
      expect(requirePathOwner(caller, pathId)).toBe(expected);
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe(expected);
    }
  });
});
