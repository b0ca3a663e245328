// The Verifier REST client of the user commands. Every failure becomes one
// CliError line: unreachable → exit 4 with the address; 401 → exit 3 with a
// hint to log in again; any other 4xx → exit 1 with the server's `detail` as
// it is; 5xx → exit 4. The API key never appears in an error.
import { CliError, EXIT } from './errors.ts';
import type { ResolvedTarget } from './config.ts';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Statuses the caller handles itself instead of an error (e.g. 404 for "absent"). */
  accept?: readonly number[];
  timeoutMs?: number;
  /** Sends no credential (public routes). */
  anonymous?: boolean;
  /** Overrides the target's key (login uses the credential it was given). */
  token?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

function detailOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (typeof b.detail === 'string') return b.detail;
    if (b.detail !== undefined) return JSON.stringify(b.detail);
    if (typeof b.error_description === 'string') return b.error_description;
    if (typeof b.error === 'string') return b.error;
  }
  return fallback;
}

function loginHint(target: ResolvedTarget): string {
  return target.keySource === 'env'
    ? 'PLATFORM_API_KEY was refused: set a valid key or unset it and run `platform login`'
    : 'run `platform login` again';
}

function networkError(server: string, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const why =
    (err as Error).name === 'TimeoutError'
      ? 'no answer in time'
      : (cause?.code ?? cause?.message ?? (err as Error).message);
  return new CliError(
    `cannot reach the Verifier at ${server}: ${why}`,
    EXIT.unreachable,
    'check --server or PLATFORM_SERVER, and that `platform run api` is running',
  );
}

export class ApiClient {
  constructor(readonly target: ResolvedTarget) {}

  private headersFor(o: RequestOptions): Record<string, string> {
    const token = o.token ?? (o.anonymous ? undefined : this.target.apiKey);
    if (!token && !o.anonymous) {
      throw new CliError('not logged in', EXIT.auth, 'run `platform login` or set PLATFORM_API_KEY');
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers = this.headersFor(o);
    let res: Response;
    try {
      res = await fetch(`${this.target.server}${path}`, {
        method,
        headers,
        body: o.body === undefined ? undefined : JSON.stringify(o.body),
        signal: AbortSignal.timeout(o.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (err) {
      throw networkError(this.target.server, err);
    }
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the error line.
    }
    if (res.ok || o.accept?.includes(res.status)) return { status: res.status, body: body as T };
    throw this.statusError(method, path, res.status, body);
  }

  private statusError(method: string, path: string, status: number, body: unknown): CliError {
    const detail = detailOf(body, `HTTP ${status}`);
    if (status === 401)
      return new CliError(`unauthorized (401): ${detail}`, EXIT.auth, loginHint(this.target));
    if (status >= 500)
      return new CliError(`${method} ${path}: the server failed (${status}): ${detail}`, EXIT.unreachable);
    return new CliError(`${method} ${path}: ${status}: ${detail}`, EXIT.failed);
  }

  get<T = unknown>(path: string, o?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, o);
  }

  post<T = unknown>(path: string, body: unknown, o?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { ...o, body });
  }
}
