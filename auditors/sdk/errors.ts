// The in-band error envelope of `/claims` (spec: Auditor errors). Every
// failure becomes `{status: 'error', claims: [], error}` with HTTP 200; the
// retryable flag comes from the code, never from the thrower.
import { ERROR_CODES, type ClaimsResponse, type ErrorCode } from './types.ts';

export type ErrorEnvelope = Extract<ClaimsResponse, { status: 'error' }>;

/** Thrown by an auditor (or the SDK) to answer with a specific error code. */
export class AuditorError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AuditorError';
  }
}

export function errorEnvelope(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): ErrorEnvelope {
  const error: ErrorEnvelope['error'] = { code, message, retryable: ERROR_CODES[code] };
  if (details && Object.keys(details).length > 0) error.details = details;
  return { status: 'error', claims: [], error };
}

export function invalidInput(message: string, details?: Record<string, unknown>): ErrorEnvelope {
  return errorEnvelope('INVALID_INPUT', message, details);
}

/**
 * Turns anything thrown by an auditor into an envelope. Unknown errors become
 * INTERNAL_ERROR with a fixed message: an exception's text may carry request
 * content or a credential, so it goes to the log, not the response.
 */
export function envelopeFromThrown(err: unknown): ErrorEnvelope {
  if (err instanceof AuditorError) return errorEnvelope(err.code, err.message, err.details);
  return errorEnvelope('INTERNAL_ERROR', 'the auditor failed while producing claims');
}
