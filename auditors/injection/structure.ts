// Structural features of a prompt injection, language-independent by
// design: which slots of an attack are filled (an imperative aimed at the
// assistant's instructions, a claimed authority or role switch, a request
// for hidden content, an exfiltration sink, secrecy, an instruction embedded
// in quoted / retrieved / tool content, a delimiter spoof) and whether each
// slot is only filled inside quotation marks. The slots come from the cue
// lexicons in cues.ts; sinks and delimiters from format regexes. The model
// learns how much each slot and each conjunction of slots counts.
import { normalizeText } from '../text/normalize.ts';
import { CUES, type Slot } from './cues.ts';
import { isQuoted } from './patterns.ts';

/** Characters of a view scanned for slots (bounded work per request). */
const MAX_SCAN = 4000;

const SPACED_SCRIPT = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function phraseSource(phrase: string): string {
  const stem = phrase.endsWith('*');
  const norm = normalizeText(stem ? phrase.slice(0, -1) : phrase);
  const body = norm
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map(escape)
    .join('[^\\p{L}\\p{N}]+');
  if (!SPACED_SCRIPT.test(norm)) return body;
  return `(?<![\\p{L}\\p{N}])${body}${stem ? '' : '(?![\\p{L}\\p{N}])'}`;
}

const SLOT_RES = Object.fromEntries(
  (Object.keys(CUES) as Slot[]).map((slot) => [
    slot,
    new RegExp([...new Set(CUES[slot].map(phraseSource))].join('|'), 'gu'),
  ]),
) as Record<Slot, RegExp>;

/** Format-level slots, matched on the lower-cased text before word folding. */
const FORMAT_RES = {
  sink_url_query: /https?:\/\/[^\s)"'<>]{1,200}[?&][\w.-]{1,30}=/gu,
  sink_md_image: /!\[[^\]\n]{0,100}\]\(\s*https?:\/\//gu,
  sink_html_img: /<img[^>]{0,200}src\s*=\s*["']?https?:/gu,
  sink_email: /[\w.+-]{1,64}@[\w-]{1,63}(\.[\w-]{1,63})+/gu,
  sink_service: /\b(webhook|ngrok|pastebin|requestbin|collector|tracker|exfil)\b/gu,
  delimiter:
    /<\|?(im_start|im_end|system|endoftext)\|?>|<\/?(system|user_input|instructions?)>|\[\/?inst\]|"role"\s*:\s*"system"|#{2,}\s*(system|end of)|(^|\n)\s*(system|assistant|developer)\s*:|-{3,}\s*end of/gu,
  html_hidden: /<!--|display\s*:\s*none|white text|font-size\s*:\s*0/gu,
  json_field: /\{\s*"[\w-]{1,30}"\s*:/gu,
} as const;
type FormatSlot = keyof typeof FORMAT_RES;

export interface SlotHits {
  /** Slots filled outside quotation marks. */
  open: Set<string>;
  /** Slots filled only inside quotation marks. */
  quoted: Set<string>;
}

function scan(re: RegExp, text: string, name: string, hits: SlotHits): void {
  re.lastIndex = 0;
  let quotedOnly = false;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (!isQuoted(text, m.index, m.index + m[0].length)) {
      hits.open.add(name);
      hits.quoted.delete(name);
      return;
    }
    quotedOnly = true;
  }
  if (quotedOnly) hits.quoted.add(name);
}

/** Slots filled in a normalised text (and in the raw lower-cased text, for format slots). */
export function findSlots(normalized: string, rawLower?: string): SlotHits {
  const text = normalized.slice(0, MAX_SCAN);
  const hits: SlotHits = { open: new Set(), quoted: new Set() };
  for (const slot of Object.keys(SLOT_RES) as Slot[]) scan(SLOT_RES[slot], text, slot, hits);
  const formatText = (rawLower ?? normalized).slice(0, MAX_SCAN);
  for (const slot of Object.keys(FORMAT_RES) as FormatSlot[]) scan(FORMAT_RES[slot], formatText, slot, hits);
  return hits;
}

const ATTACK_SLOTS = [
  ...['override', 'reveal', 'exfil', 'exfil_data', 'tool_abuse', 'assembled', 'fiction_unrestricted'],
  ...['secrecy', 'memory', 'unrestricted'],
];

/**
 * Conjunctions that make an injection, each an AND of ORs of slots ("an
 * imperative with its object", …). `sink` is any exfiltration sink; a `~`
 * prefix also accepts the slot inside quotation marks (split payloads quote
 * their pieces).
 */
const CONJUNCTIONS: readonly (readonly [string, readonly (readonly string[])[]])[] = [
  ['override', [['override_verb'], ['directive', 'prior']]],
  ['override_prior', [['override_verb'], ['directive'], ['prior']]],
  ['reveal', [['reveal_verb'], ['hidden']]],
  ['exfil', [['send_verb'], ['sink']]],
  ['exfil_data', [['send_verb', 'sink'], ['private_data']]],
  ['tool_abuse', [['tool_action'], ['tool_target', 'no_confirm']]],
  ['assembled', [['assemble'], ['~reveal_verb', '~override_verb', '~hidden']]],
  ['fiction_unrestricted', [['fiction'], ['unrestricted', 'role_switch']]],
  ['sink', [['sink']]],
  ['role_unrestricted', [['role_switch'], ['unrestricted']]],
  ['authority_override', [['authority'], ['override_verb', 'unrestricted']]],
  ['memory_claim', [['memory'], ['authority', 'sink', 'unrestricted', 'secrecy']]],
];

const SINKS = ['sink_url_query', 'sink_md_image', 'sink_html_img', 'sink_email', 'sink_service'];

/** Derived slots: the conjunctions, then where the attack sits (embedded, addressed, behind a delimiter). */
function derive(s: ReadonlySet<string>, quoted: ReadonlySet<string>): string[] {
  const sink = SINKS.some((k) => s.has(k));
  const has = (k: string): boolean =>
    k === 'sink' ? sink : k.startsWith('~') ? s.has(k.slice(1)) || quoted.has(k.slice(1)) : s.has(k);
  const out = CONJUNCTIONS.filter(([, all]) => all.every((anyOf) => anyOf.some(has))).map(([n]) => n);
  const attack = ATTACK_SLOTS.filter((k) => out.includes(k) || has(k)).length;
  const context: [string, boolean][] = [
    ['embedded_attack', (has('embedded') || has('html_hidden') || has('json_field')) && attack > 0],
    ['addressed_attack', has('ai_address') && attack > 0],
    ['delimiter_attack', has('delimiter') && (attack > 0 || has('hidden'))],
    ['two_attack_slots', attack >= 2],
    ['discussion_only', has('discussion') && attack === 0],
  ];
  return [...out, ...context.filter(([, c]) => c).map(([n]) => n)];
}

/** Feature names for the model: open slots, quoted-only slots, conjunctions, discussion context. */
export function structureFeatureNames(hits: SlotHits, questionOrCode: boolean): string[] {
  const names = [...hits.open].map((s) => `s:${s}`);
  for (const s of hits.quoted) names.push(`sq:${s}`);
  const derived = derive(hits.open, hits.quoted);
  for (const d of derived) names.push(`d:${d}`);
  for (const d of derive(new Set([...hits.open, ...hits.quoted]), hits.quoted))
    if (!derived.includes(d)) names.push(`dq:${d}`);
  const disc = hits.open.has('discussion');
  for (const d of derived) if (disc) names.push(`disc:${d}`);
  if (questionOrCode) for (const d of derived) names.push(`qc:${d}`);
  return names;
}

/** A question, or text that looks like source code: contexts where attack words are often discussed. */
export function questionOrCode(text: string): boolean {
  return (
    /[?？؟]\s*$/u.test(text.trim()) || /(^|\n)\s*(const|let|def|assert|if\s*\(|\/\/|select\s)/u.test(text)
  );
}
