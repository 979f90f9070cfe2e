import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@shared/schemas/system';
import { DEFAULT_SWITCHES } from '@shared/switches';
import { apiGet } from './api';

export const configQueryKey = ['config'] as const;

export function fetchConfig(signal?: AbortSignal): Promise<PublicConfig> {
  // Anonymous: the session restore waits for it, so it must not wait for the session. The schema
  // (and zod) load with the call, not with the shell.
  return apiGet('/config', {
    schema: () => import('@shared/schemas/system').then((module) => module.publicConfigSchema),
    signal,
    anonymous: true,
  });
}

/** GET /api/config: the deployment's public switches and constants (cached for the session). */
export function useConfig() {
  return useQuery({
    queryKey: configQueryKey,
    queryFn: ({ signal }) => fetchConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export type PublicSwitches = PublicConfig['switches'];

/**
 * The switches in force. Until /api/config answers (or if it fails) the shared defaults of this
 * deployment apply, so a switched-off feature never flashes on.
 */
export function useSwitches(): PublicSwitches {
  const { data } = useConfig();
  return data?.switches ?? DEFAULT_SWITCHES;
}
