/**
 * Addresses: key builders. Access patterns:
 *
 * | pattern                                    | key condition                                        | index |
 * |--------------------------------------------|------------------------------------------------------|-------|
 * | a user's addresses and their book, at once | pk = USER#<id>, begins_with(sk, 'ADDRESS')           | table |
 * | one address                                | pk = USER#<id>, sk = ADDRESS#<addressId>             | table |
 * | the address book (count, default, version) | pk = USER#<id>, sk = ADDRESSBOOK                     | table |
 *
 * Every change writes the changed addresses and the book in one TransactWriteItems conditioned on
 * the book's version, so changes of one user's addresses are serialised: at most 20 addresses and
 * exactly one default hold under concurrency. A user has at most 20 addresses, so the one Query
 * (ConsistentRead) reads them all with the book.
 */
export const ADDRESS_TYPE = 'address';
export const ADDRESS_BOOK_TYPE = 'address_book';

export interface Key {
  pk: string;
  sk: string;
}

const ADDRESS_PREFIX = 'ADDRESS#';
const BOOK_SK = 'ADDRESSBOOK';

export function userPartition(userId: string): string {
  return `USER#${userId}`;
}

/** begins_with prefix matching both the addresses and the book. */
export const ADDRESS_ITEMS_PREFIX = 'ADDRESS';

export function addressKey(userId: string, addressId: string): Key {
  return { pk: userPartition(userId), sk: `${ADDRESS_PREFIX}${addressId}` };
}

export function addressBookKey(userId: string): Key {
  return { pk: userPartition(userId), sk: BOOK_SK };
}

export function isBookSortKey(sk: string): boolean {
  return sk === BOOK_SK;
}
