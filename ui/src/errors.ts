// What an API answer means to a person: one sentence per failure, from the
// facade's `{detail, code?}` body and its status. Pure.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code?: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** The API's error body when it is one (`{detail, code?}`), else undefined. */
export function errorBodyOf(body: unknown): { detail: string; code?: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail, code } = body as { detail?: unknown; code?: unknown };
  if (typeof detail !== 'string') return undefined;
  return typeof code === 'string' ? { detail, code } : { detail };
}

const sentence = (s: string): string => {
  const t = s.trim();
  if (t === '') return t;
  const first = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
};

/** 409s that state a rule (a lock, a required app), not a change made meanwhile: reloading does not help. */
const RULE_CONFLICTS = new Set([
  'app_required',
  'setting_locked',
  'tool_blocked',
  'tool_required',
  'agent_exists',
  'credential_exists',
  'credential_enforced',
]);

const conflictWords = (err: ApiError, detail: string): string =>
  RULE_CONFLICTS.has(err.code ?? '')
    ? detail
    : `${detail} It changed meanwhile: reload and try again.`.trim();

/** The words shown for a failed call: what happened and, where it helps, what to do. */
export function describeError(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Could not reach the server. Check the connection and try again.';
  const detail = sentence(err.detail);
  switch (true) {
    case err.status === 401:
      return 'Your session has ended or the key was refused. Sign in again.';
    case err.status === 403:
      return `You are not allowed to do this. ${detail}`.trim();
    case err.status === 404:
      return `Not found. ${detail}`.trim();
    case err.status === 409:
      return conflictWords(err, detail);
    case err.status === 413:
      return 'That is too large for the server to accept.';
    case err.status >= 500:
      return `The server could not do this right now (${err.status}). Try again in a moment.`;
    default:
      return detail || `The request was refused (${err.status}).`;
  }
}
