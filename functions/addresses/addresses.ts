import { DomainError } from '../core/errors';
import type {
  Address,
  AddressInput,
  AddressList,
  DeletedAddress,
} from '../../shared/schemas/addresses';
import type { AddressesRepo } from './addresses.repo';
import {
  planAdd,
  planDelete,
  planUpdate,
  sortForList,
  type BookState,
  type Plan,
} from './addresses.rules';

export interface AddressesDeps {
  repo: AddressesRepo;
  newId: (now: Date) => string;
  sleep?: (ms: number) => Promise<void>;
}

/** Enough for a few dozen concurrent changes of one user's addresses (each round lets one in). */
export const MAX_ATTEMPTS = 40;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function change(
  deps: AddressesDeps,
  userId: string,
  planFor: (state: BookState) => Plan,
): Promise<Plan> {
  const sleep = deps.sleep ?? defaultSleep;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const state = await deps.repo.load(userId);
    const plan = planFor(state);
    if ((await deps.repo.commit(userId, state.version, plan)) === 'done') return plan;
    await sleep(Math.round(Math.random() * Math.min(100, 5 * 2 ** Math.min(attempt, 5))));
  }
  throw new DomainError('unavailable', {
    message: 'Too many concurrent changes to these addresses; please try again.',
  });
}

/** users/{id}/addaddress: the first address (or one sent with default true) becomes the default. */
export async function addAddress(
  deps: AddressesDeps,
  input: { userId: string; address: AddressInput },
  now: Date,
): Promise<Address> {
  const id = deps.newId(now);
  const plan = await change(deps, input.userId, (state) => planAdd(state, input.address, id, now));
  return plan.result as Address;
}

/** users/{id}/updateaddress/{addressId}: replaces the fields; default true moves the default. */
export async function updateAddress(
  deps: AddressesDeps,
  input: { userId: string; addressId: string; address: AddressInput },
  now: Date,
): Promise<Address> {
  const plan = await change(deps, input.userId, (state) =>
    planUpdate(state, input.addressId, input.address, now),
  );
  return plan.result as Address;
}

/** users/{id}/deleteaddress/{addressId}: deleting the default promotes the most recent one left. */
export async function deleteAddress(
  deps: AddressesDeps,
  input: { userId: string; addressId: string },
): Promise<DeletedAddress> {
  const plan = await change(deps, input.userId, (state) => planDelete(state, input.addressId));
  return { deleted: input.addressId, default: plan.defaultId };
}

/** users/{id}/addresses: all of the caller's addresses, the default first. */
export async function listAddresses(
  deps: Pick<AddressesDeps, 'repo'>,
  input: { userId: string },
): Promise<AddressList> {
  const state = await deps.repo.load(input.userId);
  return { items: sortForList(state.addresses) };
}
