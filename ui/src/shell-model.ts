// The console shell as pure pieces: who may see it (Owners only), the
// WebSocket address and subprotocols (a browser cannot set Authorization: the
// key rides in a `base64url.bearer…` subprotocol beside the console's own, as
// docs/console.md says), the frames, the command history of the input line
// (arrow keys) and the bounded output. Pure.

export const SHELL_SUBPROTOCOL = 'platform.console.v1';
export const TOKEN_SUBPROTOCOL_PREFIX = 'base64url.bearer.authorization.platform.io.';

/** Whether `subject` is an Owner of the agent (the shell is for Owners only; administrators are not). */
export const isOwner = (subject: string, owners: readonly { subject: string; role: string }[]): boolean =>
  owners.some((o) => o.subject === subject && o.role === 'Owner');

/** base64url of the UTF-8 bytes, without padding. */
export function base64url(text: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(text)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The subprotocols a browser offers: the console's, then the key. */
export const shellProtocols = (key: string): string[] => [
  SHELL_SUBPROTOCOL,
  `${TOKEN_SUBPROTOCOL_PREFIX}${base64url(key)}`,
];

/** The shell's WebSocket URL for a page served at `origin` (http → ws, https → wss); plain pipes. */
export function shellUrl(origin: string, agentId: string): string {
  return `${origin.replace(/^http/, 'ws')}/v1/agents/${encodeURIComponent(agentId)}/console/shell`;
}

export type ServerFrame = { type: 'stdout' | 'stderr'; data: string } | { type: 'exit'; code: number };

/** A server message as a frame, undefined when it is not one. */
export function parseServerFrame(text: string): ServerFrame | undefined {
  try {
    const f = JSON.parse(text) as { type?: unknown; data?: unknown; code?: unknown };
    if ((f.type === 'stdout' || f.type === 'stderr') && typeof f.data === 'string')
      return { type: f.type, data: f.data };
    if (f.type === 'exit' && typeof f.code === 'number') return { type: 'exit', code: f.code };
  } catch {
    return undefined;
  }
  return undefined;
}

export const stdinFrame = (line: string): string => JSON.stringify({ type: 'stdin', data: `${line}\n` });

/** Words for a WebSocket close: the shell's exit, an idle end, a refusal of a frame, a lost connection. */
export function closeWords(code: number, reason: string, exitCode: number | undefined): string {
  if (exitCode !== undefined) return `The shell exited with code ${exitCode}.`;
  if (code === 1000) return reason ? `The session ended: ${reason}.` : 'The session ended.';
  if (code === 1001) return 'The server is shutting down; the session ended.';
  if (code === 1008) return `The server closed the session: ${reason || 'a frame was refused'}.`;
  return 'The connection to the shell was lost.';
}

export interface History {
  entries: string[];
  /** The entry shown, entries.length when on the draft line. */
  index: number;
  /** What was being typed before going back through the history. */
  draft: string;
}

export const HISTORY_MAX = 100;
export const emptyHistory = (): History => ({ entries: [], index: 0, draft: '' });

/** After a command is sent: it joins the history (not twice in a row; blanks not at all). */
export function remember(h: History, command: string): History {
  const entries = command.trim() === '' || h.entries.at(-1) === command ? h.entries : [...h.entries, command];
  const kept = entries.slice(-HISTORY_MAX);
  return { entries: kept, index: kept.length, draft: '' };
}

/** ArrowUp (-1) or ArrowDown (+1) from the line `current`: the new history and the line to show. */
export function browse(h: History, direction: -1 | 1, current: string): { history: History; line: string } {
  const index = Math.min(h.entries.length, Math.max(0, h.index + direction));
  const draft = h.index === h.entries.length ? current : h.draft;
  const line = index === h.entries.length ? draft : (h.entries[index] ?? '');
  return { history: { ...h, index, draft }, line };
}

export const OUTPUT_MAX = 100_000;

// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\r(?!\n)/g;

/** The output with `text` added: terminal escapes dropped, the oldest cut beyond `max` characters. */
export function appendOutput(output: string, text: string, max = OUTPUT_MAX): string {
  const next = output + text.replace(ESCAPES, '');
  return next.length > max ? next.slice(next.length - max) : next;
}
