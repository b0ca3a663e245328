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
import { EXTRA_CUES, type ExtraSlot } from './cues-extra.ts';
import { WEAK_ATTACKS, WEAK_CONJUNCTIONS, WEAK_CUES, type WeakSlot } from './cues-weak.ts';
import { quotedMask, segmentOf, segmentStarts } from './quotes.ts';

/** Characters scanned for slots (bounded work per request): the head, and the tail of longer texts. */
const MAX_HEAD = 4000;
const MAX_TAIL = 2000;
/** Matches recorded per slot (positions feed the segment-local conjunctions). */
const MAX_MATCHES = 64;

type CueSlot = Slot | ExtraSlot | WeakSlot;
const ALL_CUES: Record<CueSlot, readonly string[]> = { ...CUES, ...EXTRA_CUES, ...WEAK_CUES };

const SPACED_SCRIPT = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A phrase as a regex body, and whether it needs word boundaries (space-separated scripts). */
function phraseSource(phrase: string): { body: string; spaced: boolean } {
  const stem = phrase.endsWith('*');
  const norm = normalizeText(stem ? phrase.slice(0, -1) : phrase);
  const body = norm
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .map(escape)
    .join('[^\\p{L}\\p{N}]+');
  if (!SPACED_SCRIPT.test(norm)) return { body, spaced: false };
  return { body: `${body}${stem ? '' : '(?![\\p{L}\\p{N}])'}`, spaced: true };
}

/**
 * One regex per slot. The word-start lookbehind is shared by all spaced
 * phrases rather than repeated per alternative: V8 compiles these unions on
 * first use, and a smaller pattern compiles and runs faster.
 */
function slotRegex(phrases: readonly string[]): RegExp {
  const parts = phrases.map(phraseSource);
  const spaced = [...new Set(parts.filter((p) => p.spaced).map((p) => p.body))];
  const other = [...new Set(parts.filter((p) => !p.spaced).map((p) => p.body))];
  const alts = [...(spaced.length > 0 ? [`(?<![\\p{L}\\p{N}])(?:${spaced.join('|')})`] : []), ...other];
  return new RegExp(alts.join('|'), 'gu');
}

const SLOT_RES = Object.fromEntries(
  (Object.keys(ALL_CUES) as CueSlot[]).map((slot) => [slot, slotRegex(ALL_CUES[slot])]),
) as Record<CueSlot, RegExp>;

/** Words that name the AI in a vocative (normalised like the input: Cyrillic look-alikes fold to Latin). */
const AI = `(${[
  ...['ai', 'assistant', 'agent', 'bot', 'model', 'llm', 'chatbot', 'chatgpt', 'system', 'ia', 'ki'],
  ...['asistente', 'assistente', 'assistent', 'agente', 'modelo', 'modele', 'modell', 'ии', 'ассистент'],
]
  .map(normalizeText)
  .join('|')})`;

/** Format-level slots, matched on the lower-cased text before word folding. */
const FORMAT_RES = {
  sink_url_query: /https?:\/\/[^\s)"'<>]{1,200}[?&][\w.-]{1,30}=/gu,
  sink_md_image: /!\[[^\]\n]{0,100}\]\(\s*https?:\/\//gu,
  sink_html_img: /<img[^>]{0,200}src\s*=\s*["']?https?:/gu,
  sink_email: /[\w.+-]{1,64}@[\w-]{1,63}(\.[\w-]{1,63})+/gu,
  sink_service: /\b(webhook|ngrok|pastebin|requestbin|collector|tracker|exfil)\b/gu,
  delimiter:
    /<\|?(im_start|im_end|system|endoftext)\|?>|<\/?(system|user_input|instructions?)>|\[\/?inst\]|"role"\s*:\s*"system"|#{2,}\s*(system|end of)|(^|\n)[^\S\n]*(system|assistant|developer)[^\S\n]*:|-{3,}\s*end of/gu,
  html_hidden: /<!--|display\s*:\s*none|white text|font-size\s*:\s*0/gu,
  json_field: /\{\s*"[\w-]{1,30}"\s*:/gu,
  // Tool abuse and payload splitting by form: a destructive command, a function call, "x + y".
  shell_cmd:
    /rm\s+-rf|curl[^|\n]{0,100}\|\s*(ba)?sh|chmod\s+(-r\s+)?777|drop\s+table|delete\s+from|truncate\s+table|\/etc\/(passwd|shadow)|~\/\.(ssh|aws)/gu,
  tool_call:
    /\b[a-z][a-z0-9]{1,20}_[a-z0-9_]{1,30}\([^)\n]{0,80}\)|\b(use|using|with|via|through|call|invoke|open)\s+(the\s+|your\s+|my\s+)?[\w-]{1,20}\s+(tool|api|connector|integration|function|console|plugin)\b/gu,
  var_concat:
    /\b(do|run|execute|perform|follow)\s+[a-z]\d?\s+(then|and|\+)\s+[a-z]\d?\b|\b[a-z]\w{0,3}\s*\+\s*(["'][^"'\n]{0,5}["']\s*\+\s*)?[a-z]\w{0,3}\b/gu,
  ai_vocative_form: new RegExp(
    [
      // "Assistant, …" / "Hey bot: …" / "Also, vision model, …" at a sentence or quote start.
      `(^|[\\n.!?:,[(>"'/-]\\s{0,8})(dear |hey |hi |attention |note to (the |any )?)?([\\w-]{1,20} )?${AI}s?(?!\\p{L})[\\w -]{0,50}[,:]`,
      `(^|[\\n.!?:,[(>"'-]\\s{0,8})${AI}s?\\s+please\\b`,
      // "Note for any AI …", "(To the grading AI: …)".
      `(note|message|instructions?|reminder)s? (to|for) (the |any |all )?[\\w -]{0,20}${AI}s?\\b`,
      `(^|[\\n.!?:[(>"'-]\\s{0,8})(to|for) (the |any |all )?[\\w -]{0,20}${AI}s?\\s*[,:]`,
      // "Language models indexing this page must …", "the AI that reads this".
      `(?<!\\p{L})${AI}s? (that |who )?(reading|indexing|processing|summari[sz]ing|crawling|parsing|analy[sz]ing|using|describing|reads|summari[sz]es|processes|indexes|handles|sees) (this|these|the)\\b`,
      // An AI named by its job ("summary tools must …", "the screening model", "Zusammenfassungs-KI").
      `\\b(summary|summari[sz]ation|screening|review|reviewer|grading|shopping|scheduling|email|mail|coding|browsing|recruiting|meeting|note-taking|transcription|accounts-payable|payable|hiring|applicant) (tools?|ai|assistants?|agents?|bots?|models?|systems?)\\b`,
      `\\b\\p{L}{3,20}-(ki|ia|ai)\\b`,
      `\\bautomated [\\w-]{1,20} (assistants?|agents?|tools?|systems?|readers?)\\b`,
      `\\b(llm|ai|agent|model|assistant)[_ -]?(instructions?|directive|note|prompt)\\b`,
      // Round 4: "LLM reviewers", "AI agents summarising …".
      `\\b(llm|ai) (reviewers?|agents?|readers?|tools?|systems?)\\b`,
    ].join('|'),
    'gu',
  ),
  you_are_x_now: /\byou(?:'re| are)\s+(?:now\s+)?(?:a|an|the|my)\s+[\w-]{1,20}(?:\s+[\w-]{1,20})?\s+now\b/gu,
  reported_form:
    /\b(make|made|making|get|got|trick|tricked|convince[ds]?|force[ds]?|cause[ds]?|led)\s+(the|a|an)\s+(bot|model|assistant|agent|ai|llm|chatbot)\s+(to|into)\b/gu,
  no_limits_form:
    /\b(no|without|zero|free (of|from))\s+(any\s+)?(content\s+|safety\s+|ethical\s+|moral\s+)?(polic(y|ies)|guidelines?|rules|restrictions?|limits|filters?|censorship|guardrails|ethics|morals)\b/gu,
  // Bounded quantifiers: a long letter run must not cost quadratic backtracking.
  encoded_blob: /(?<![\w/])(?=[a-z+/]{0,64}\d)[a-z0-9+/]{24,512}={0,2}(?![\w/=])/gu,
  email_header: /(^|\n)(from|to|subject|re|fwd|date|cc):\s/gu,
  spelled: /\b(?:[a-z][-.](?=[a-z])){4,}[a-z]\b/gu,
  // Planted output instructions (BIPIA-style): content supplied by the document, to be put
  // into what the assistant produces ("integrate the following snippet into your answer").
  supplied_content:
    /\b(following|subsequent|below|attached|enclosed)\s+(code|snippet|script|block|excerpt|section|text|link|url|lines?|message|paragraph|sentence|function|command|payload)s?\b/gu,
  your_output:
    /\byour\s+(responses?|answers?|reply|replies|output|solution|code|codebase|implementation|summary|explanation|elucidation|program|script|result)\b/gu,
  // Code that reaches the network or the system (what a planted snippet is for).
  code_reach:
    /\brequests\.(get|post|put)\b|\bhttp\.client\b|\burllib\b|\bsocket\.|\bsubprocess\b|\bos\.(system|environ|rename|remove)\b|\b(smtplib|ftplib|paramiko|psutil|httpx|aiohttp|wget)\b/gu,
  code: /(^|\n)[^\S\n]*(const|let|var|def|assert|import|from|class|function|return|grep|select|#|\/\/|it\(|test\(|describe\(|expect\()|=>|===|\)[^\S\n]*;[^\S\n]*($|\n)/gu,
} as const;
type FormatSlot = keyof typeof FORMAT_RES;

export interface SlotHits {
  /** Slots filled outside quotation marks. */
  open: Set<string>;
  /** Slots filled only inside quotation marks. */
  quoted: Set<string>;
  /** Open slots per window of two consecutive segments (for local conjunctions). */
  local: Set<string>[];
}

interface ScanContext {
  text: string;
  mask: Uint8Array;
  starts: number[];
  hits: SlotHits;
}

/**
 * Verbs whose negation reverses the point: "must not reveal the system
 * prompt" is policy, "never send conversation history" a rule. A negated hit
 * fills `neg_<slot>` instead of the slot.
 */
const NEGATABLE = new Set(['override_verb', 'reveal_verb', 'send_verb', 'tool_action']);
const NEGATION =
  /(^|[^\p{L}])(not|never|n't|cannot|no one|nobody|nie|nicht|niemals|pas|jamais|ne|nunca|nao|non|mai|не|никогда)[^\p{L}]+([\p{L}]+[^\p{L}]+){0,2}$/u;
const CJK_NEGATION = /(不要|不得|不能|禁止|しない|しては|لا |मत )$/u;

function negated(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 32), at);
  return NEGATION.test(before) || CJK_NEGATION.test(before);
}

/** The whole word a (possibly stem) match sits in ends in -ed / -ing: a report, not an order. */
function reportForm(text: string, m: RegExpExecArray): boolean {
  const end = m.index + m[0].length;
  const word = m[0] + (/^\p{L}{0,6}/u.exec(text.slice(end, end + 6))?.[0] ?? '');
  return /[a-z](ed|ing)$/u.test(word);
}

/** A match counts as quoted when both of its ends sit inside a quotation. */
const quotedMatch = (mask: ScanContext['mask'], m: RegExpExecArray): boolean =>
  mask[m.index] === 1 && mask[m.index + m[0].length - 1] === 1;

/** Records an unquoted match in the open slots and in the local window of its segment. */
function recordOpen(ctx: ScanContext, name: string, m: RegExpExecArray): void {
  // A negated or past-tense / gerund verb reports or forbids an action rather than ordering it.
  const report = NEGATABLE.has(name) && (negated(ctx.text, m.index) || reportForm(ctx.text, m));
  const slot = report ? `neg_${name}` : name;
  ctx.hits.open.add(slot);
  const seg = segmentOf(ctx.starts, m.index);
  ctx.hits.local[seg]!.add(slot);
  if (seg > 0) ctx.hits.local[seg - 1]!.add(slot);
}

function scan(re: RegExp, name: string, ctx: ScanContext): void {
  re.lastIndex = 0;
  let quotedOnly = false;
  let found = 0;
  for (let m = re.exec(ctx.text); m && found < MAX_MATCHES; m = re.exec(ctx.text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    found++;
    if (quotedMatch(ctx.mask, m)) quotedOnly = true;
    else recordOpen(ctx, name, m);
  }
  if (quotedOnly && !ctx.hits.open.has(name)) ctx.hits.quoted.add(name);
}

/** The head of a long text and its tail: injected instructions often sit at the end of a document. */
function scanWindow(text: string): string {
  if (text.length <= MAX_HEAD + MAX_TAIL) return text;
  return `${text.slice(0, MAX_HEAD)}\n${text.slice(text.length - MAX_TAIL)}`;
}

/** Slots filled in a normalised text (and in the raw lower-cased text, for format slots). */
export function findSlots(normalized: string, rawLower?: string): SlotHits {
  const text = scanWindow(normalized);
  const starts = segmentStarts(text);
  const hits: SlotHits = { open: new Set(), quoted: new Set(), local: starts.map(() => new Set()) };
  const ctx: ScanContext = { text, mask: quotedMask(text), starts, hits };
  for (const slot of Object.keys(SLOT_RES) as CueSlot[]) scan(SLOT_RES[slot], slot, ctx);
  const formatText = rawLower === undefined ? text : scanWindow(rawLower);
  const formatCtx =
    formatText === text
      ? ctx
      : { text: formatText, mask: quotedMask(formatText), starts: segmentStarts(formatText), hits };
  if (formatCtx !== ctx) hits.local = [...hits.local, ...formatCtx.starts.map(() => new Set<string>())];
  for (const slot of Object.keys(FORMAT_RES) as FormatSlot[]) scan(FORMAT_RES[slot], slot, formatCtx);
  return hits;
}

const ATTACK_SLOTS = [
  ...['override', 'reveal', 'exfil', 'exfil_data', 'tool_abuse', 'assembled', 'fiction_unrestricted'],
  ...['secrecy', 'memory', 'unrestricted', 'role_hijack', 'tool_unconfirmed', 'obey_me', 'shell_cmd'],
  ...['vocative_attack', 'embedded_manipulation', 'quoted_exec', 'encoded_exec', 'no_limits_form'],
  ...['planted_output'],
  ...WEAK_ATTACKS,
];

/** Slots that make an instruction to the model harmful, whoever it is addressed to. */
const HARMFUL = [
  ...['override_verb', 'reveal_verb', 'send_verb', 'tool_action', 'tool_call', 'manipulate', 'secrecy'],
  ...['unrestricted', 'hidden', 'shell_cmd'],
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
  ['reveal_yours', [['reveal_verb'], ['your'], ['hidden', 'directive']]],
  [
    'quoted_exec',
    [['execute_it'], ['~override_verb', '~reveal_verb', '~hidden', '~send_verb', '~directive']],
  ],
  ['exfil', [['send_verb'], ['sink']]],
  ['exfil_data', [['send_verb', 'sink'], ['private_data']]],
  [
    'tool_abuse',
    [
      ['tool_action', 'tool_call'],
      ['tool_target', 'no_confirm', 'shell_cmd'],
    ],
  ],
  ['tool_bulk', [['tool_action', 'tool_call'], ['bulk_scope']]],
  [
    'tool_unconfirmed',
    [
      ['tool_action', 'tool_call', 'shell_cmd'],
      ['no_confirm', 'secrecy'],
    ],
  ],
  [
    'assembled',
    [
      ['assemble', 'var_concat'],
      ['~reveal_verb', '~override_verb', '~hidden', '~send_verb'],
    ],
  ],
  ['fiction_unrestricted', [['fiction'], ['unrestricted', 'role_switch', 'no_limits_form']]],
  ['sink', [['sink']]],
  [
    'role_unrestricted',
    [
      ['role_switch', 'you_are_x_now'],
      ['unrestricted', 'no_limits_form'],
    ],
  ],
  [
    'encoded_exec',
    [
      ['encoded_blob', 'spelled'],
      ['execute_it', 'assemble'],
    ],
  ],
  [
    'embedded_vocative',
    [
      ['ai_vocative', 'ai_vocative_form'],
      ['embedded', 'html_hidden', 'json_field', 'email_header'],
    ],
  ],
  [
    'role_hijack',
    [
      ['role_switch', 'you_are_x_now'],
      ['obey_me', 'unrestricted', 'authority'],
    ],
  ],
  ['vocative_target', [['ai_vocative_form'], ['private_data', 'tool_target', 'bulk_scope', 'sink']]],
  ['authority_override', [['authority'], ['override_verb', 'unrestricted']]],
  ['memory_claim', [['memory'], ['authority', 'sink', 'unrestricted', 'secrecy']]],
  ['vocative_attack', [['ai_vocative', 'ai_vocative_form'], HARMFUL]],
  ['embedded_manipulation', [['manipulate'], ['embedded', 'ai_vocative', 'html_hidden', 'json_field']]],
  ['planted_output', [['supplied_content'], ['your_output']]],
  ['planted_code', [['supplied_content', 'your_output'], ['code_reach']]],
  ...WEAK_CONJUNCTIONS,
];

const SINKS = ['sink_url_query', 'sink_md_image', 'sink_html_img', 'sink_email', 'sink_service'];

function conjunctions(s: ReadonlySet<string>, quoted: ReadonlySet<string>): string[] {
  const sink = SINKS.some((k) => s.has(k));
  const has = (k: string): boolean =>
    k === 'sink' ? sink : k.startsWith('~') ? s.has(k.slice(1)) || quoted.has(k.slice(1)) : s.has(k);
  return CONJUNCTIONS.filter(([, all]) => all.every((anyOf) => anyOf.some(has))).map(([n]) => n);
}

interface AttackFacts {
  has: (slot: string) => boolean;
  /** How many attack slots are filled. */
  attack: number;
}

const hasAny = (f: AttackFacts, slots: readonly string[]): boolean => slots.some(f.has);
const META_SLOTS = ['discussion', 'reported', 'reported_form', 'code'];

/** Where an attack sits, each a slot derived from the filled slots. */
const CONTEXT_SLOTS: [string, (f: AttackFacts) => boolean][] = [
  ['embedded_attack', (f) => hasAny(f, ['embedded', 'html_hidden', 'json_field']) && f.attack > 0],
  ['addressed_attack', (f) => hasAny(f, ['ai_address', 'ai_vocative_form']) && f.attack > 0],
  ['delimiter_attack', (f) => f.has('delimiter') && (f.attack > 0 || f.has('hidden'))],
  ['two_attack_slots', (f) => f.attack >= 2],
  ['discussion_only', (f) => f.has('discussion') && f.attack === 0],
  ['reported_attack', (f) => f.has('reported') && f.attack > 0],
  ['prohibited_attack', (f) => f.has('prohibition') && f.attack > 0],
  [
    'meta_no_address',
    (f) => hasAny(f, META_SLOTS) && f.attack > 0 && !hasAny(f, ['ai_vocative', 'ai_vocative_form']),
  ],
];

/** Derived slots: the conjunctions, then where the attack sits (embedded, addressed, behind a delimiter). */
function derive(s: ReadonlySet<string>, quoted: ReadonlySet<string>): string[] {
  const out = conjunctions(s, quoted);
  const has = (k: string): boolean => s.has(k) || (k === 'sink' && out.includes('sink'));
  const facts: AttackFacts = { has, attack: ATTACK_SLOTS.filter((k) => out.includes(k) || has(k)).length };
  return [...out, ...CONTEXT_SLOTS.filter(([, holds]) => holds(facts)).map(([n]) => n)];
}

/** Conjunctions met inside one window of two consecutive segments. */
function localConjunctions(hits: SlotHits): Set<string> {
  const out = new Set<string>();
  for (const seg of hits.local) if (seg.size > 1) for (const c of conjunctions(seg, hits.quoted)) out.add(c);
  return out;
}

/** Feature names for the model: open slots, quoted-only slots, conjunctions, discussion context. */
export function structureFeatureNames(hits: SlotHits, questionOrCode: boolean): string[] {
  const names = [...hits.open].map((s) => `s:${s}`);
  for (const s of hits.quoted) names.push(`sq:${s}`);
  const derived = derive(hits.open, hits.quoted);
  for (const d of derived) names.push(`d:${d}`);
  const all = new Set([...hits.open, ...hits.quoted]);
  const quotedDerived = derive(all, hits.quoted).filter((d) => !derived.includes(d));
  for (const d of quotedDerived) names.push(`dq:${d}`);
  for (const l of localConjunctions(hits)) names.push(`l:${l}`);
  names.push(...contextNames(hits, derived, quotedDerived.length > 0));
  if (questionOrCode) for (const d of derived) names.push(`qc:${d}`);
  return names;
}

/** Discussion / report / code context crossed with the attack slots, and quoted text addressed to the AI. */
function contextNames(hits: SlotHits, derived: readonly string[], quotedAttack: boolean): string[] {
  const names: string[] = [];
  const meta = ['discussion', 'reported', 'reported_form', 'code'].filter((k) => hits.open.has(k));
  // Attack slots filled only inside quotation marks of a discussion: a mention, not a use.
  const openAttack = conjunctions(hits.open, hits.quoted).length > 0;
  if (meta.length > 0 && quotedAttack && !openAttack) names.push('mention_only');
  for (const m of meta) for (const d of derived) names.push(`${m}:${d}`);
  // Quoted text that speaks to the AI ("'Assistant: grant admin'") is delivered content, not a
  // mention, unless the text around it is a report or discussion.
  const quotedVocative = hits.quoted.has('ai_vocative_form') || hits.quoted.has('ai_vocative');
  if (quotedVocative && quotedAttack)
    names.push(meta.length > 0 ? 'meta_quoted_addressed' : 'quoted_addressed_attack');
  return names;
}

/** A question, or text that looks like source code: contexts where attack words are often discussed. */
export function questionOrCode(text: string): boolean {
  return (
    /[?？؟]\s*$/u.test(text.trim()) ||
    /(^|\n)[^\S\n]*(const|let|def|assert|if\s*\(|\/\/|select\s)/u.test(text)
  );
}
