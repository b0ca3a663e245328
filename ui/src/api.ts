// The one way the UI talks to the facade: same origin, `Authorization:
// Bearer <key>` from the session. A 401 anywhere ends the session and sends
// the person to the login page with a message (app.tsx listens). The key is
// kept in sessionStorage only, and is never logged.
import { ApiError, errorBodyOf } from './errors.ts';
import type { Whoami } from './model.ts';

const STORAGE = 'platform.session';

export interface Session {
  key: string;
  who: Whoami;
}

export function loadSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(STORAGE);
    return raw ? (JSON.parse(raw) as Session) : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(s: Session | undefined): void {
  if (s) sessionStorage.setItem(STORAGE, JSON.stringify(s));
  else sessionStorage.removeItem(STORAGE);
}

type Expired = (message: string) => void;
let onExpired: Expired = () => undefined;

/** Who is told when a call answers 401 (the app: back to login). */
export function whenExpired(f: Expired): void {
  onExpired = f;
}

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { detail: `unexpected answer from the server (${res.status})` };
  }
}

/** One call; throws ApiError with the server's words on any status ≥ 400. */
export async function call<T>(method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const token = key ?? loadSession()?.key ?? '';
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const parsed = await parse(res);
  if (res.ok) return parsed as T;
  const err = errorBodyOf(parsed) ?? { detail: res.statusText };
  const failure = new ApiError(res.status, err.detail, err.code);
  if (res.status === 401 && key === undefined) endSession();
  throw failure;
}

/** Ends the session as a 401 does (also for a stream the API refused with 401): back to login. */
export function endSession(): void {
  saveSession(undefined);
  onExpired('Your session has ended or your key was revoked. Sign in again to go on.');
}

export const get = <T>(path: string): Promise<T> => call<T>('GET', path);

/** Every page of a list route that pages with `continue`. */
export async function getAll<T>(path: string, limit = 1000): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await get<{ items: T[]; continue?: string }>(
      `${path}${sep}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
    );
    items.push(...page.items);
    token = page.continue;
  } while (token);
  return items;
}

export const agentPath = (id: string, rest = ''): string => `/v1/agents/${encodeURIComponent(id)}${rest}`;

/** Tells the badge and lists that something changed (a decision, a share). */
export function announceChange(): void {
  window.dispatchEvent(new Event('platform:changed'));
}
