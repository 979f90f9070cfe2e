import { useCallback } from 'react';
import { useTranslation } from './i18n';
import { ApiError, UNEXPECTED_ERROR } from './api';

/**
 * The user-facing text of an error. Error codes are i18n keys (shared/errors/registry.ts); a code
 * without a text shows the server's message if any, else "Unexpected Error".
 */
export function useErrorText(): (error: unknown) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (error: unknown) =>
      errorTextOf({ exists: (key) => i18n.exists(key), t: (key) => t(key) }, error),
    [t, i18n],
  );
}

/** The same text outside React (query callbacks), from a translator (lib/i18n.ts). */
export function errorTextOf(
  i18n: { exists: (key: string) => boolean; t: (key: 'unexpected') => string },
  error: unknown,
): string {
  const code = error instanceof ApiError ? error.code : UNEXPECTED_ERROR;
  if (i18n.exists(code)) return i18n.t(code as 'unexpected');
  if (error instanceof ApiError && error.message && error.message !== code) return error.message;
  return i18n.t('unexpected');
}
