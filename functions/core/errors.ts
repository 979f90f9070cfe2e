import {
  ERROR_KINDS,
  ERROR_CODES,
  type ErrorCode,
  type ErrorKind,
} from '../../shared/errors/registry';

/**
 * A failure the caller can act on: a registered code (also the web's i18n key), optional field
 * errors and details. The error middleware maps it to its status and the error body, last.
 */
export class DomainError extends Error {
  override name = 'DomainError';
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    options: {
      message?: string;
      fields?: Record<string, string>;
      details?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(
      options.message ?? code,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.fields = options.fields;
    this.details = options.details;
  }

  get kind(): ErrorKind {
    return ERROR_CODES[this.code];
  }

  get status(): number {
    return ERROR_KINDS[this.kind];
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
