import { lazy, Suspense } from 'react';
import { userCard, useUserCardNick } from '../../../lib/userCardStore';

/* The card loads when a card is first opened. */
const UserCardModal = lazy(async () => ({
  default: (await import('./UserCardModal')).UserCardModal,
}));

/** Mounted once at the root: shows the card of the user `userCard.open(nick)` asked for. */
export function UserCardHost() {
  const nick = useUserCardNick();
  if (nick === null) return null;
  return (
    <Suspense fallback={null}>
      <UserCardModal key={nick} nick={nick} onClose={userCard.close} />
    </Suspense>
  );
}
