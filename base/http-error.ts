// The one HTTP error type of every server here (the API, the webhook, the
// policy operations behind the API's routes) and the one `{detail, code?}`
// body it becomes. Transport-free, so a domain module may throw it without
// depending on the API; each server's error handler answers with it.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export interface ErrorBody {
  detail: string;
  code?: string;
}

/** The body of every error answer: `{detail, code}`, `code` left out when there is none. */
export const errorBody = (err: HttpError): ErrorBody =>
  err.code ? { detail: err.detail, code: err.code } : { detail: err.detail };

export const badRequest = (detail: string, code = 'invalid_request'): HttpError =>
  new HttpError(400, detail, code);
export const unauthorized = (detail: string): HttpError =>
  new HttpError(401, detail, 'unauthenticated', { 'www-authenticate': 'Bearer' });
export const forbidden = (detail: string): HttpError => new HttpError(403, detail, 'forbidden');
export const notFound = (detail: string): HttpError => new HttpError(404, detail, 'not_found');
export const conflict = (detail: string, code = 'conflict'): HttpError => new HttpError(409, detail, code);
export const unprocessable = (detail: string, code = 'unprocessable'): HttpError =>
  new HttpError(422, detail, code);
