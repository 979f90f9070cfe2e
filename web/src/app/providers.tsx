import CssBaseline from '@mui/material/CssBaseline';
import { THEME_ID } from '@mui/material/styles';
// @mui/system's provider with Material UI's theme id is what @mui/material's ThemeProvider renders
// for a theme without CSS variables (ours); importing that one also bundles its CSS-variables
// provider (~3 KiB gzip on every page), which this app never uses.
import { ThemeProvider } from '@mui/system';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from '../components/Toaster';
import { ApiError, NETWORK_ERROR } from '../lib/api';
import { errorTextOf } from '../lib/errors';
import { I18nContext, i18n as defaultI18n, type I18n } from '../lib/i18n';
import { toasts } from '../lib/toast';
import { theme } from './theme';

function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  if (!(error instanceof ApiError)) return false;
  return error.code === NETWORK_ERROR || error.status >= 500;
}

/**
 * The query client. Screens show their own loading, empty and error states; failures that no
 * screen shows (a background refresh of data already on screen, a mutation) become a 10 s toast,
 * with a reload action for an unexpected answer (spec 001 §8).
 */
export function createQueryClient(i18n: I18n = defaultI18n): QueryClient {
  const notify = (error: unknown) => {
    const unexpected = !(error instanceof ApiError) || error.code === 'unexpected';
    toasts.show({
      severity: 'error',
      message: errorTextOf(i18n, error),
      action: unexpected
        ? { label: i18n.t('common.reload'), onClick: () => window.location.reload() }
        : undefined,
    });
  };
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.state.data !== undefined) notify(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.options.onError) notify(error);
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

interface AppProvidersProps {
  children: ReactNode;
  queryClient: QueryClient;
  i18n?: I18n;
}

/** Theme, data, i18n and toasts; the router goes inside. */
export function AppProviders({ children, queryClient, i18n = defaultI18n }: AppProvidersProps) {
  return (
    <I18nContext value={i18n}>
      <ThemeProvider themeId={THEME_ID} theme={theme}>
        <CssBaseline />
        <QueryClientProvider client={queryClient}>
          {children}
          <Toaster />
        </QueryClientProvider>
      </ThemeProvider>
    </I18nContext>
  );
}
