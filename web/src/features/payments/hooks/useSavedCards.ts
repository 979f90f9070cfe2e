import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedCard } from '@shared/schemas/payments';
import { useCallback } from 'react';
import { useLiveMessages } from '../../../lib/liveChannel';
import {
  createCardSetup,
  fetchSavedCards,
  makeDefaultCard,
  paymentKeys,
  removeSavedCard,
} from '../api/payments';
import { externalNavigation } from '../externalNavigation';

/**
 * The saved cards, newest first; refetched when the live channel says they changed
 * (`payments.cards_updated`: a card added on Stripe's page, a default set by the webhook).
 */
export function useSavedCards() {
  const queryClient = useQueryClient();
  useLiveMessages(
    useCallback(
      (message) => {
        if (message.type === 'payments.cards_updated') {
          void queryClient.invalidateQueries({ queryKey: paymentKeys.cards() });
        }
      },
      [queryClient],
    ),
  );
  return useQuery({
    queryKey: paymentKeys.cards(),
    queryFn: ({ signal }) => fetchSavedCards(signal),
  });
}

/** The page shows each failure itself, so the global mutation toast stays quiet. */
const shownByThePage = () => undefined;

/** Remove and make-default answer the new list: it replaces the cached one. */
function useCardChange(change: (id: string) => Promise<SavedCard[]>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (card: SavedCard) => change(card.id),
    onSuccess: (cards) => queryClient.setQueryData(paymentKeys.cards(), cards),
    onError: shownByThePage,
  });
}

export function useRemoveCard() {
  return useCardChange(removeSavedCard);
}

export function useMakeDefaultCard() {
  return useCardChange(makeDefaultCard);
}

/** "Add a card": Stripe's hosted card form (Checkout in setup mode), in this window. */
export function useAddCard() {
  return useMutation({
    mutationFn: createCardSetup,
    onSuccess: (session) => externalNavigation.assign(session.url),
    onError: shownByThePage,
  });
}
