/** Too many failed pins: the code carries the wait, `login.errors.wait:<seconds>`. */
export const LOGIN_WAIT_CODE = 'login.errors.wait';

/** The wait of a `login.errors.wait:<seconds>` code, or undefined for any other code. */
export function loginWaitSeconds(code: string): number | undefined {
  const match = /^login\.errors\.wait:(\d+)$/.exec(code);
  return match === null ? undefined : Number(match[1]);
}

/**
 * The i18n key of a failed login step (spec 001 §8: `login.errors.{status}`, plus rate_limited,
 * network, and `login.errors.wait:<seconds>` when the account or the caller must wait). Amplify raises AuthErrors named after Cognito's exceptions; the custom-auth triggers'
 * refusals arrive in their message.
 */
export function loginErrorCode(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message.toLowerCase() : '';
  const status = httpStatusOf(error);
  if (name === 'NetworkError' || message.includes('network error')) return 'network';
  // A trigger's throttle: "<Trigger> failed with error login.errors.wait:<seconds>."
  const wait = /login\.errors\.wait:(\d+)/.exec(message);
  if (wait !== null) return `${LOGIN_WAIT_CODE}:${wait[1]}`;
  if (
    status === 429 ||
    // AWS WAF's per-IP limit on the user pool: "Request not allowed due to WAF block."
    (name === 'ForbiddenException' && message.includes('waf')) ||
    name === 'TooManyRequestsException' ||
    name === 'LimitExceededException' ||
    name === 'TooManyFailedAttemptsException' ||
    message.includes('rate_limited') ||
    message.includes('too many')
  ) {
    return 'rate_limited';
  }
  if (
    status === 403 ||
    message.includes('blocked') ||
    // A trigger's refusal: "<Trigger> failed with error login.errors.403."
    message.includes('login.errors.403') ||
    message.includes('user is disabled') ||
    name === 'UserDisabledException'
  ) {
    return 'login.errors.403';
  }
  if (
    status === 401 ||
    name === 'NotAuthorizedException' ||
    name === 'UserNotFoundException' ||
    name === 'CodeMismatchException' ||
    name === 'ExpiredCodeException'
  ) {
    return 'login.errors.401';
  }
  return 'login.errors.500';
}

function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as {
    $metadata?: { httpStatusCode?: unknown };
    underlyingError?: { $metadata?: { httpStatusCode?: unknown } };
  };
  const status =
    record.$metadata?.httpStatusCode ?? record.underlyingError?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}
