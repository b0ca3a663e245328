// Errors of the OAuth endpoints, in the RFC 6749 §5.2 shape
// `{error, error_description}`. An `OAuthError` is an HttpError whose code is
// the OAuth error code; any other client error met on the way (a body of the
// wrong type, too large, malformed, failing its schema) is `invalid_request`
// with its status kept. Pure.
import { HttpError } from '../../base/http-error.ts';

export const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'temporarily_unavailable',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERRORS)[number];

export class OAuthError extends HttpError {
  constructor(code: OAuthErrorCode, description: string, status = 400, headers: Record<string, string> = {}) {
    super(status, description, code, headers);
    this.name = 'OAuthError';
  }
}

export interface OAuthErrorBody {
  error: string;
  error_description: string;
}

/** RFC 6749 §5.2: 401 with `WWW-Authenticate` when the client tried HTTP Basic, else 401 plainly. */
export const invalidClient = (description: string, basic = false): OAuthError =>
  new OAuthError(
    'invalid_client',
    description,
    401,
    basic ? { 'www-authenticate': 'Basic realm="oauth"' } : {},
  );

export const invalidRequest = (description: string): OAuthError =>
  new OAuthError('invalid_request', description);

function codeOf(err: HttpError): OAuthErrorCode {
  if (err instanceof OAuthError) return err.code as OAuthErrorCode;
  if (err.status === 503) return 'temporarily_unavailable';
  return 'invalid_request';
}

/** The §5.2 body of an HttpError; `error_description` is limited to the characters §5.2 allows. */
export function oauthErrorBody(err: HttpError): OAuthErrorBody {
  const description = err.detail.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "'");
  return { error: codeOf(err), error_description: description };
}
