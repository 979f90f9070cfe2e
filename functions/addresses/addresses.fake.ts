import type { Address } from '../../shared/schemas/addresses';
import type { AddressesRepo } from './addresses.repo';

/**
 * In-memory AddressesRepo with the DynamoDB repo's semantics: a plan commits only when the book's
 * version is still the one read. `race()` bumps the version once before the next commit.
 */
export function fakeAddressesRepo() {
  const books = new Map<string, { version: number; addresses: Map<string, Address> }>();
  const calls: string[] = [];
  let raceNext = false;
  const book = (userId: string) => {
    let found = books.get(userId);
    if (found === undefined) {
      found = { version: 0, addresses: new Map() };
      books.set(userId, found);
    }
    return found;
  };
  const repo: AddressesRepo = {
    async load(userId) {
      calls.push('load');
      const found = book(userId);
      return {
        version: found.version,
        addresses: [...found.addresses.values()].map((address) => ({ ...address })),
      };
    },
    async commit(userId, expectedVersion, plan) {
      calls.push('commit');
      const found = book(userId);
      if (raceNext) {
        raceNext = false;
        found.version += 1;
      }
      if (found.version !== expectedVersion) return 'stale';
      for (const address of plan.put) found.addresses.set(address.id, { ...address });
      for (const id of plan.delete) found.addresses.delete(id);
      found.version += 1;
      return 'done';
    },
  };
  return {
    repo,
    calls,
    addresses: (userId: string) => [...book(userId).addresses.values()],
    race() {
      raceNext = true;
    },
  };
}
