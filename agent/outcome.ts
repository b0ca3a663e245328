// What a model call came to, read from the answer alone. In a secured pod the
// call is answered by the gateway: a 403 `blocked_by_policy` body is a deny
// (with the Evidence id and the reasons), anything else passed the policy and
// carries the Evidence id in `x-platform-evidence-id`.
import type { IncomingHttpHeaders } from 'node:http';
import { isPrintableId } from '../evidence/validate.ts';

export type Decision = 'allow' | 'deny';

export interface ModelOutcome {
  /** The HTTP status the model path answered. */
  status: number;
  decision: Decision;
  evidence_id?: string;
  /** The assistant's text ('' when there is none). */
  answer: string;
  decision_reasons?: string[];
  /** The error message of a non-2xx answer that was not a deny, cut to 200 characters. */
  error?: string;
}

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The content deltas of a server-sent event stream, joined; `[DONE]` and non-JSON lines are skipped. */
export function sseText(body: string): string {
  let out = '';
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const chunk = asObject(parseJson(line.slice(5).trim()));
    const choice = asObject((chunk?.choices as unknown[] | undefined)?.[0]);
    const content = asObject(choice?.delta)?.content;
    if (typeof content === 'string') out += content;
  }
  return out;
}

/**
 * The assistant's text: `choices[0].message.content` of a JSON answer, or the
 * joined deltas of a stream. Read by shape, not by content-type, because the
 * gateway relays a streamed answer whole as `application/json`.
 */
export function answerText(body: string): string {
  if (/^\s*data:/.test(body)) return sseText(body);
  const choice = asObject((asObject(parseJson(body))?.choices as unknown[] | undefined)?.[0]);
  const content = asObject(choice?.message)?.content;
  return typeof content === 'string' ? content : '';
}

function errorMessage(body: Json | undefined): string | undefined {
  const message = asObject(body?.error)?.message ?? body?.detail;
  return typeof message === 'string' ? message.slice(0, 200) : undefined;
}

/** The gateway's deny: 403 with `code: blocked_by_policy`, its Evidence id and reasons. */
function denyOf(status: number, json: Json | undefined): ModelOutcome | undefined {
  if (status !== 403 || json?.code !== 'blocked_by_policy') return undefined;
  const reasons = Array.isArray(json.decision_reasons) ? json.decision_reasons : [];
  return {
    status,
    decision: 'deny',
    ...(isPrintableId(json.evidence_id) ? { evidence_id: json.evidence_id } : {}),
    answer: '',
    decision_reasons: reasons.filter((r): r is string => typeof r === 'string'),
  };
}

export function classifyModelAnswer(
  status: number,
  headers: IncomingHttpHeaders,
  body: string,
): ModelOutcome {
  const json = asObject(parseJson(body));
  const deny = denyOf(status, json);
  if (deny) return deny;
  const header = headers['x-platform-evidence-id'];
  const evidenceId = Array.isArray(header) ? header[0] : header;
  const ok = status >= 200 && status < 300;
  const error = ok ? undefined : errorMessage(json);
  return {
    status,
    decision: 'allow',
    ...(isPrintableId(evidenceId) ? { evidence_id: evidenceId } : {}),
    answer: ok ? answerText(body) : '',
    ...(error ? { error } : {}),
  };
}
