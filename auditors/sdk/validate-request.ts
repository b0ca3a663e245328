// Validation of a `/claims` request (spec: Auditor contract, POST /claims).
// Pure: text in, a typed request or every problem found out. Each problem names
// the field, what was expected and what arrived.
import { settingValueMatches } from './setting-names.ts';
import { REQUEST_PHASES, type ClaimsRequest, type RequestPhase } from './types.ts';

export const DEFAULT_MAX_DEPTH = 32;

export type Validated = { ok: true; request: ClaimsRequest } | { ok: false; problems: string[] };

type Obj = Record<string, unknown>;

function kind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The deepest nesting of `[`/`{` in JSON text, found without parsing (so a
 * pathological body is refused before the parser sees it). Stops counting at
 * `limit + 1`.
 */
export function jsonNestingDepth(text: string, limit = Number.MAX_SAFE_INTEGER): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      continue;
    }
    depth += DEPTH_CHANGE.get(c) ?? 0;
    if (depth > max) max = depth;
    if (max > limit) return max;
  }
  return max;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `[`/`{` open a level, `]`/`}` close one. */
const DEPTH_CHANGE: ReadonlyMap<number, number> = new Map([
  [0x5b, 1],
  [0x7b, 1],
  [0x5d, -1],
  [0x7d, -1],
]);

/** Index of the quote closing the string opened at `open` (the text's length when unterminated). */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH)
      i++; // skip the escaped character
    else if (c === QUOTE) return i;
  }
  return text.length;
}

function checkOptionalStrings(obj: Obj, fields: readonly string[], prefix: string, problems: string[]): void {
  for (const f of fields) {
    if (obj[f] !== undefined && typeof obj[f] !== 'string') {
      problems.push(`${prefix}.${f} must be a string (got ${kind(obj[f])})`);
    }
  }
}

/** The text fields of `data`, and the phases that require them. */
const DATA_TEXT_FIELDS = [
  {
    name: 'input',
    requiredIn: ['request', 'response'],
    missing: 'data.input is required: the prompt or request text',
  },
  {
    name: 'output',
    requiredIn: ['response'],
    missing: 'data.output is required in the response phase: the model response',
  },
] as const;

function textFieldProblem(
  data: Obj,
  field: (typeof DATA_TEXT_FIELDS)[number],
  phase: unknown,
): string | undefined {
  const value = data[field.name];
  if (value === undefined)
    return (field.requiredIn as readonly unknown[]).includes(phase) ? field.missing : undefined;
  return typeof value === 'string' ? undefined : `data.${field.name} must be a string (got ${kind(value)})`;
}

function checkData(data: unknown, phase: unknown, problems: string[]): void {
  if (data === undefined)
    return void problems.push('data is required: an object with input (and output in the response phase)');
  if (!isObject(data)) return void problems.push(`data must be an object (got ${kind(data)})`);
  for (const field of DATA_TEXT_FIELDS) {
    const problem = textFieldProblem(data, field, phase);
    if (problem) problems.push(problem);
  }
  if (data.metadata !== undefined) {
    if (!isObject(data.metadata))
      problems.push(`data.metadata must be an object (got ${kind(data.metadata)})`);
    else
      checkOptionalStrings(data.metadata, ['model_id', 'session_id', 'user_id'], 'data.metadata', problems);
  }
}

function checkPhase(phase: unknown, supported: readonly RequestPhase[], problems: string[]): void {
  if (phase === undefined)
    return void problems.push(`phase is required: one of ${REQUEST_PHASES.join(', ')}`);
  if (typeof phase !== 'string' || !(REQUEST_PHASES as readonly string[]).includes(phase)) {
    return void problems.push(
      `phase must be one of ${REQUEST_PHASES.join(', ')} (got ${JSON.stringify(phase)})`,
    );
  }
  if (!supported.includes(phase as RequestPhase)) {
    problems.push(`phase '${phase}' is not supported by this auditor (supported: ${supported.join(', ')})`);
  }
}

function checkOverrides(overrides: unknown, problems: string[]): void {
  const at = 'platform_context.detection_overrides';
  if (!isObject(overrides))
    return void problems.push(`${at} must be an object of claim name to settings (got ${kind(overrides)})`);
  for (const [claim, settings] of Object.entries(overrides)) {
    if (!isObject(settings)) {
      problems.push(`${at}.${claim} must be an object of setting key to value (got ${kind(settings)})`);
      continue;
    }
    for (const [key, value] of Object.entries(settings)) {
      const legal = ['number', 'boolean', 'string', 'string[]'] as const;
      if (!legal.some((t) => settingValueMatches(t, value))) {
        problems.push(
          `${at}.${claim}.${key} must be a number, boolean, string, string list or null (got ${kind(value)})`,
        );
      }
    }
  }
}

function checkContext(ctx: unknown, problems: string[]): void {
  if (ctx === undefined) return;
  if (!isObject(ctx)) return void problems.push(`platform_context must be an object (got ${kind(ctx)})`);
  checkOptionalStrings(ctx, ['trace_id', 'agent_id', 'workspace_id'], 'platform_context', problems);
  if (ctx.auditor_config !== undefined && !isObject(ctx.auditor_config)) {
    problems.push(`platform_context.auditor_config must be an object (got ${kind(ctx.auditor_config)})`);
  }
  if (ctx.detection_overrides !== undefined) checkOverrides(ctx.detection_overrides, problems);
}

/** Validates an already-parsed body. Unknown top-level fields are allowed (minor versions add optional fields). */
export function validateClaimsRequest(
  body: unknown,
  supported: readonly RequestPhase[] = REQUEST_PHASES,
): Validated {
  if (!isObject(body)) return { ok: false, problems: [`the body must be a JSON object (got ${kind(body)})`] };
  const problems: string[] = [];
  checkPhase(body.phase, supported, problems);
  checkData(body.data, body.phase, problems);
  checkContext(body.platform_context, problems);
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, request: body as unknown as ClaimsRequest };
}

export type ParsedBody =
  { ok: true; value: unknown } | { ok: false; message: string; details?: Record<string, unknown> };

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes → JSON value: strict UTF-8, bounded nesting, then JSON.parse. */
export function parseJsonBody(bytes: Uint8Array, maxDepth = DEFAULT_MAX_DEPTH): ParsedBody {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, message: 'the body is not valid UTF-8' };
  }
  if (text.trim() === '') return { ok: false, message: 'the body is empty: expected a JSON object' };
  if (jsonNestingDepth(text, maxDepth) > maxDepth) {
    return {
      ok: false,
      message: `the body is nested deeper than ${maxDepth} levels`,
      details: { max_depth: maxDepth },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: `the body is not valid JSON: ${(err as Error).message.slice(0, 160)}` };
  }
}
