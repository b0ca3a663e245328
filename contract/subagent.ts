// Attribution: which subagent of an agent makes a model or tool call. The
// agent runtime says so with one header (SUBAGENT_HEADER) on the call; the
// Gateway puts the name in the Evidence, the credential proxy and the MCP
// gateway in the data-access record, and none of them forwards the header.
import { SUBAGENT_HEADER, SUBAGENT_PATTERN } from './console.ts';

const SUBAGENT_RE = new RegExp(SUBAGENT_PATTERN);

/** A subagent's name as records carry it: SUBAGENT_PATTERN (1–253 characters, no control characters). */
export const isSubagentName = (v: unknown): v is string => typeof v === 'string' && SUBAGENT_RE.test(v);

export type SubagentHeader = { ok: true; subagent: string | undefined } | { ok: false; problem: string };

/**
 * The subagent a request names (undefined: none, the agent itself). A value
 * that is not a subagent's name (empty, too long, a control character, two
 * headers joined by a comma) is a problem the caller answers with a 400.
 */
export function subagentOf(headers: Record<string, string | string[] | undefined>): SubagentHeader {
  const raw = headers[SUBAGENT_HEADER];
  if (raw === undefined) return { ok: true, subagent: undefined };
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (isSubagentName(value)) return { ok: true, subagent: value };
  return {
    ok: false,
    problem: `header ${SUBAGENT_HEADER}: one subagent name expected (1–253 of A-Z a-z 0-9 space . _ : / -, starting with a letter or digit)`,
  };
}
