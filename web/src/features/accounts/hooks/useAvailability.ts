import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { checkAvailability, type AvailabilityKind } from '../api/accounts';

export const AVAILABILITY_DEBOUNCE_MS = 400;

export type Availability = 'idle' | 'checking' | 'available' | 'taken' | 'error';

/** `value` once it has not changed for `delay` ms. */
export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * Whether a nick, e-mail or phone is free, checked as the user types (debounced); only valid
 * values are checked.
 */
export function useAvailability(kind: AvailabilityKind, value: string, valid: boolean) {
  const debounced = useDebounced(value, AVAILABILITY_DEBOUNCE_MS);
  const settled = valid && debounced === value && value !== '';
  const query = useQuery({
    queryKey: ['availability', kind, debounced],
    queryFn: ({ signal }) => checkAvailability(kind, debounced, signal),
    enabled: settled,
    staleTime: 30_000,
    retry: false,
  });
  let state: Availability = 'idle';
  if (valid && value !== '') {
    if (!settled || query.isFetching) state = 'checking';
    else if (query.isError) state = 'error';
    else if (query.data === true) state = 'available';
    else if (query.data === false) state = 'taken';
  }
  return state;
}
