// Input hygiene, in one place: every string a request carries (path and query
// parameters, body values and body keys) is refused with 422 when it holds a
// character that corrupts what the API stores or shows — control characters
// (C0, DEL, C1), lone surrogates, and the two noncharacters kubectl's YAML
// reader rejects. Identifiers additionally refuse line breaks, tabs and bidi
// formatting; only free-text fields (by name, FREE_TEXT_FIELDS) may hold them.
// Pure. Decision 86 says what is refused and why.
import { HttpError } from './http-error.ts';

/** Refused in every string: C0 but TAB/LF/CR, DEL, C1, lone surrogates, U+FFFE, U+FFFF. */
const NEVER = String.raw`\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u{D800}-\u{DFFF}\u{FFFE}\u{FFFF}`;
/** Also refused outside free text: TAB, LF, CR, line/paragraph separators, bidi embeddings, overrides and isolates. */
const LAYOUT = String.raw`\t\n\r\u2028\u2029\u202A-\u202E\u2066-\u2069`;
/**
 * The same rule as JSON Schema patterns, for the OpenAPI document, so a
 * client or fuzzer that follows the document is never refused for a
 * character. `\uXXXX` escapes read alike in ECMA-262 (`u` flag), Python and
 * Rust regex engines. Lone surrogates are left out: they are not Unicode
 * scalar values, no pattern over code points can name them (Rust's engine
 * refuses the range, and a validator then drops the whole pattern), and
 * RFC 8259 text should not hold them; the API refuses them all the same.
 */
const NEVER_ESCAPED = String.raw`\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff`;
const LAYOUT_ESCAPED = String.raw`\u0009\u000a\u000d\u2028\u2029\u202a-\u202e\u2066-\u2069`;
export const FREE_TEXT_CHARACTERS = `^[^${NEVER_ESCAPED}]*$`;
export const IDENTIFIER_CHARACTERS = `^[^${NEVER_ESCAPED}${LAYOUT_ESCAPED}]*$`;

const IN_FREE_TEXT = new RegExp(`[${NEVER}]`, 'u');
const IN_IDENTIFIER = new RegExp(`[${NEVER}${LAYOUT}]`, 'u');
const IN_IDENTIFIER_ALL = new RegExp(`[${NEVER}${LAYOUT}]`, 'gu');

/**
 * Body fields that hold prose (a description, a reason, Cedar rules, a PEM
 * certificate, an auditor's error message): the CRD schema's `text()` fields
 * and their API counterparts. A string in an array takes its array's name.
 */
export const FREE_TEXT_FIELDS: ReadonlySet<string> = new Set([
  'description',
  'reason',
  'message',
  'decision_reasons',
  'personality',
  'guidelines',
  'content',
  'cedar',
  'certPem',
  'cert_pem',
  'condition',
  'delegationConditions',
]);

export interface HygieneProblem {
  /** Where: `path subject`, `query limit`, `body/spec/owners/0/subject`. */
  field: string;
  /** What: `U+007F at position 6`. */
  what: string;
}

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first refused character of `s` (code point and position), or undefined. */
export function refusedCharacter(s: string, freeText = false): string | undefined {
  const m = (freeText ? IN_FREE_TEXT : IN_IDENTIFIER).exec(s);
  return m ? `${codePoint(m[0])} at position ${m.index}` : undefined;
}

/** A name as it may appear in a message: JSON-pointer escaped, bounded, refused characters spelled out. */
const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const safeName = (key: string): string =>
  pointerToken(key.slice(0, 64)).replace(IN_IDENTIFIER_ALL, codePoint);

interface Pending {
  value: unknown;
  at: string;
  freeText: boolean;
}

/** An object's keys are checked at once; its values go on the stack, first key on top. */
function visitObject(value: object, at: string, stack: Pending[]): HygieneProblem | undefined {
  const entries = Object.entries(value);
  for (const [k] of entries) {
    const what = refusedCharacter(k);
    if (what) return { field: `${at}/${safeName(k)}`, what: `key holds ${what}` };
  }
  for (const [k, v] of entries.reverse()) {
    stack.push({ value: v, at: `${at}/${safeName(k)}`, freeText: FREE_TEXT_FIELDS.has(k) });
  }
  return undefined;
}

/** A string is checked; an array's or an object's members go on the stack. */
function visit({ value, at, freeText }: Pending, stack: Pending[]): HygieneProblem | undefined {
  if (typeof value === 'string') {
    const what = refusedCharacter(value, freeText);
    return what ? { field: at, what } : undefined;
  }
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], at: `${at}/${i}`, freeText });
    return undefined;
  }
  if (typeof value === 'object' && value !== null) return visitObject(value, at, stack);
  return undefined;
}

/** Depth-first, with an explicit stack: a deeply nested body cannot overflow the call stack. */
function walk(root: unknown, rootAt: string): HygieneProblem | undefined {
  const stack: Pending[] = [{ value: root, at: rootAt, freeText: false }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const problem = visit(next, stack);
    if (problem) return problem;
  }
  return undefined;
}

/** The first problem in a JSON body, its field as a pointer under `body`. */
export const bodyProblem = (body: unknown): HygieneProblem | undefined => walk(body, 'body');

/** The first problem among named parameters (`path` or `query`); names are checked too. */
export function paramsProblem(
  kind: 'path' | 'query',
  params: Readonly<Record<string, string>>,
): HygieneProblem | undefined {
  for (const [name, value] of Object.entries(params)) {
    const nameProblem = refusedCharacter(name);
    if (nameProblem) return { field: `${kind} ${safeName(name)}`, what: `name holds ${nameProblem}` };
    const what = refusedCharacter(value);
    if (what) return { field: `${kind} ${name}`, what };
  }
  return undefined;
}

export function hygieneError(p: HygieneProblem): HttpError {
  return new HttpError(
    422,
    `${p.field}: ${p.what}; control characters, line breaks outside free text, bidi controls, lone surrogates and U+FFFE/U+FFFF are not accepted`,
    'control_characters',
  );
}

/** Throws 422 `control_characters` naming the first offending field. */
export function assertClean(problem: HygieneProblem | undefined): void {
  if (problem) throw hygieneError(problem);
}
