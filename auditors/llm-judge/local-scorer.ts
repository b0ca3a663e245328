// The scorer used when no judge model is configured: deterministic signals
// (instruction override, secret fishing, weapons, threats, hidden characters,
// encoded blobs) combined as independent evidence, and lexical overlap for
// relevance. It is a fallback, and its claims say so in metadata.

export interface JudgeScores {
  risk: number;
  /** Present in the response phase. */
  relevance?: number;
  /** Names of the signals that fired (never the matched text). */
  signals: string[];
}

const SIGNALS: { name: string; weight: number; re: RegExp }[] = [
  {
    name: 'instruction_override',
    weight: 0.6,
    re: /\b(ignore|disregard|forget)\b.{0,40}\b(previous|prior|above|earlier|all)\b.{0,20}\b(instructions?|prompts?|rules?)\b/i,
  },
  {
    name: 'prompt_exfiltration',
    weight: 0.45,
    re: /\b(system prompt|developer mode|jailbreak|do anything now)\b/i,
  },
  {
    name: 'secret_fishing',
    weight: 0.3,
    re: /\b(password|api[ _-]?key|secret key|private key|credentials?|access token)\b/i,
  },
  {
    name: 'weapons',
    weight: 0.8,
    re: /\b(make|build|synthesi[sz]e|assemble)\b.{0,30}\b(bomb|explosive|nerve agent|bioweapon|firearm)\b/i,
  },
  {
    name: 'threat',
    weight: 0.6,
    re: /\b(kill|murder|hurt|attack)\b.{0,15}\b(you|him|her|them|myself|people)\b/i,
  },
  { name: 'hidden_characters', weight: 0.3, re: /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/ },
  { name: 'encoded_blob', weight: 0.2, re: /[A-Za-z0-9+/]{200,}={0,2}/ },
];

const STOPWORDS = new Set(
  "the and for are but not you your with this that from have has was were what when where which who why how can could would should will shall about into than then them they their there these those its it's our out all any some been being does did doing just also very more most such only own same too".split(
    ' ',
  ),
);

function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []) if (!STOPWORDS.has(w)) out.add(w);
  return out;
}

/** Share of the prompt's content words that the response mentions (1 when the prompt has none). */
export function relevanceScore(input: string, output: string): number {
  const asked = terms(input);
  if (output.trim() === '') return 0;
  if (asked.size === 0) return 1;
  const answered = terms(output);
  let hit = 0;
  for (const t of asked) if (answered.has(t)) hit++;
  return Math.round((hit / asked.size) * 1000) / 1000;
}

/** 1 − Π(1 − weight) over the signals found in `text`. */
export function riskScore(text: string): { risk: number; signals: string[] } {
  let clear = 1;
  const signals: string[] = [];
  for (const s of SIGNALS) {
    if (s.re.test(text)) {
      signals.push(s.name);
      clear *= 1 - s.weight;
    }
  }
  return { risk: Math.round((1 - clear) * 1000) / 1000, signals };
}

/** Request phase: the prompt's risk. Response phase: the response's risk and its relevance to the prompt. */
export function localScores(input: string, output: string | undefined): JudgeScores {
  const { risk, signals } = riskScore(output ?? input);
  const scores: JudgeScores = { risk, signals };
  if (output !== undefined) scores.relevance = relevanceScore(input, output);
  return scores;
}
