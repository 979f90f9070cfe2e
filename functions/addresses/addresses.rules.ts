import { DomainError } from '../core/errors';
import { ADDRESS_LIMITS, type Address, type AddressInput } from '../../shared/schemas/addresses';

/**
 * Pure rules of a user's address book (spec 001 §3 Postal address; issue 3 item 8): at most 20
 * addresses; exactly one default while any exist — the first address is the default, choosing
 * another default clears the previous one, deleting the default makes the most recent remaining
 * address the default. Each plan lists only what changes, for one transaction.
 */
export interface BookState {
  /** 0 when the book item does not exist yet. */
  version: number;
  addresses: Address[];
}

export interface Plan {
  /** Addresses to write (new or changed), with their final default flag. */
  put: Address[];
  /** Ids of new addresses among `put` (written with attribute_not_exists). */
  created: string[];
  delete: string[];
  defaultId: string | null;
  count: number;
  /** The address the call answers with (add, update). */
  result: Address | undefined;
}

/** Newest first: created_at, then id (ULIDs sort by time). */
export function byRecency(a: Address, b: Address): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The default after a change: the preferred one if given, else the current default if it is still
 * there, else the most recent address, else none.
 */
export function resolveDefault(addresses: Address[], preferred?: string): string | null {
  if (preferred !== undefined && addresses.some((address) => address.id === preferred)) {
    return preferred;
  }
  const current = addresses.find((address) => address.default);
  if (current !== undefined) return current.id;
  return [...addresses].sort(byRecency)[0]?.id ?? null;
}

function sameAddress(a: Address, b: Address): boolean {
  return (Object.keys(a) as (keyof Address)[]).every((key) => a[key] === b[key]);
}

function plan(
  before: Address[],
  after: Address[],
  preferred: string | undefined,
  created: string[],
  resultId: string | undefined,
): Plan {
  const defaultId = resolveDefault(after, preferred);
  const final = after.map((address) => ({ ...address, default: address.id === defaultId }));
  const previous = new Map(before.map((address) => [address.id, address]));
  const put = final.filter((address) => {
    const old = previous.get(address.id);
    return old === undefined || !sameAddress(old, address);
  });
  const remaining = new Set(final.map((address) => address.id));
  return {
    put,
    created,
    delete: before.filter((address) => !remaining.has(address.id)).map((address) => address.id),
    defaultId,
    count: final.length,
    result: final.find((address) => address.id === resultId),
  };
}

function fields(input: AddressInput) {
  return {
    country: input.country,
    fullname: input.fullname,
    line1: input.line1,
    line2: input.line2,
    postalcode: input.postalcode,
    city: input.city,
    stateprovince: input.stateprovince,
    instructions: input.instructions,
  };
}

function notFound(): DomainError {
  return new DomainError('addresses.errors.not_found', {
    message: 'This address could not be found.',
  });
}

export function planAdd(state: BookState, input: AddressInput, id: string, now: Date): Plan {
  if (state.addresses.length >= ADDRESS_LIMITS.maxPerUser) {
    throw new DomainError('addresses.errors.limit', {
      message: `At most ${ADDRESS_LIMITS.maxPerUser} addresses per user.`,
    });
  }
  const at = now.toISOString();
  const address: Address = {
    id,
    ...fields(input),
    default: false,
    created_at: at,
    updated_at: at,
  };
  const preferred = input.default === true || state.addresses.length === 0 ? id : undefined;
  return plan(state.addresses, [...state.addresses, address], preferred, [id], id);
}

/**
 * Replaces an address's fields. `default: true` makes it the default; `default: false` on the
 * current default is ignored (there is always one: choose another address as default instead).
 */
export function planUpdate(
  state: BookState,
  addressId: string,
  input: AddressInput,
  now: Date,
): Plan {
  const old = state.addresses.find((address) => address.id === addressId);
  if (old === undefined) throw notFound();
  const updated: Address = { ...old, ...fields(input), updated_at: now.toISOString() };
  const after = state.addresses.map((address) => (address.id === addressId ? updated : address));
  return plan(
    state.addresses,
    after,
    input.default === true ? addressId : undefined,
    [],
    addressId,
  );
}

export function planDelete(state: BookState, addressId: string): Plan {
  if (!state.addresses.some((address) => address.id === addressId)) throw notFound();
  const after = state.addresses.filter((address) => address.id !== addressId);
  return plan(state.addresses, after, undefined, [], undefined);
}

/** The list as answered: the default first, then newest first. */
export function sortForList(addresses: Address[]): Address[] {
  return [...addresses].sort((a, b) =>
    a.default !== b.default ? (a.default ? -1 : 1) : byRecency(a, b),
  );
}
