import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Address, AddressInput } from '@shared/schemas/addresses';
import {
  addAddress,
  addressKeys,
  deleteAddress,
  fetchAddresses,
  inputOf,
  updateAddress,
} from '../api/addresses';

export function useAddresses(userId: string) {
  return useQuery({
    queryKey: addressKeys.list(userId),
    queryFn: ({ signal }) => fetchAddresses(userId, signal),
  });
}

/**
 * Every change refetches the list (the server moves the default flag around). The section shows
 * each failure itself (field errors, a toast), so the global mutation toast stays quiet.
 */
const shownByTheSection = () => undefined;

function useRefresh(userId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: addressKeys.list(userId) });
}

/** Adds (no id) or updates (with the address's id). */
export function useSaveAddress(userId: string) {
  const refresh = useRefresh(userId);
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: AddressInput }) =>
      id === null ? addAddress(userId, input) : updateAddress(userId, id, input),
    onSuccess: refresh,
    onError: shownByTheSection,
  });
}

export function useSetDefaultAddress(userId: string) {
  const refresh = useRefresh(userId);
  return useMutation({
    mutationFn: (address: Address) =>
      updateAddress(userId, address.id, { ...inputOf(address), default: true }),
    onSuccess: refresh,
    onError: shownByTheSection,
  });
}

export function useDeleteAddress(userId: string) {
  const refresh = useRefresh(userId);
  return useMutation({
    mutationFn: (address: Address) => deleteAddress(userId, address.id),
    onSuccess: refresh,
    onError: shownByTheSection,
  });
}
