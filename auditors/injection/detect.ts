// The injection detector as one pure function over the layers: normalised
// views → invisible characters → banned substrings → pattern scorer →
// statistical model. Each layer's result is kept for its own claims.
import { predict, type LogisticWeights } from '../text/hashing.ts';
import { scanInvisible, type InvisibleReport } from '../text/invisible.ts';
import { languageCoverage, uncoveredScore } from '../text/language.ts';
import { normalizeText, primaryView, textViews, compact, type TextView } from '../text/normalize.ts';
import { injectionFeatures } from './features.ts';
import { isQuoted, scorePatterns, type PatternResult } from './patterns.ts';

export const DEFAULT_BAN_SUBSTRINGS = [
  'ignore previous instructions',
  'ignore all previous instructions',
  'disregard previous instructions',
  'ignore the above instructions',
  'forget your previous instructions',
];

export interface InjectionSettings {
  threshold: number;
  banSubstrings: readonly string[];
  invisibleCharCheck: boolean;
}

/** Score floor when an unquoted banned substring matches. */
export const BANNED_FLOOR = 0.9;
/** Score floor when suspicious invisible characters are present and the check is on. */
export const INVISIBLE_FLOOR = 0.85;

export interface InjectionAnalysis {
  score: number;
  detected: boolean;
  statisticalScore: number;
  patterns: PatternResult;
  banned: string[];
  invisible: InvisibleReport;
  invisibleSuspicious: boolean;
  decodings: string[];
  language: string;
  /** Whether the language is one the cue lexicons and training data cover (else the score is floored, see below). */
  languageCovered: boolean;
}

/** Languages of the cue lexicons and the augmentation set that language detection can tell apart. */
export const INJECTION_LANGUAGES: ReadonlySet<string> = new Set([
  'en',
  'es',
  'fr',
  'de',
  'pt',
  'it',
  'nl',
  'ru',
  'zh',
  'ja',
  'ar',
  'hi',
]);

/** Normalised and compacted forms of configured phrases (the list rarely changes; bounded). */
const NEEDLES = new Map<string, { needle: string; packed: string }>();

function needleOf(phrase: string): { needle: string; packed: string } {
  let n = NEEDLES.get(phrase);
  if (!n) {
    const needle = normalizeText(phrase).trim();
    n = { needle, packed: compact(needle) };
    if (NEEDLES.size >= 1000) NEEDLES.clear();
    NEEDLES.set(phrase, n);
  }
  return n;
}

/** Banned substrings matched case- and spacing-insensitively; quoted mentions are reported but flagged. */
export function matchBanned(
  views: readonly TextView[],
  banned: readonly string[],
): { matched: string[]; unquoted: boolean } {
  const matched: string[] = [];
  let unquoted = false;
  let compacted: string[] | undefined;
  for (const phrase of banned) {
    const { needle, packed } = needleOf(phrase);
    if (needle.length === 0) continue;
    const spaced = views.map((v) => ({ v, at: v.text.indexOf(needle) })).find((x) => x.at >= 0);
    if (spaced) {
      matched.push(phrase);
      if (!isQuoted(spaced.v.text, spaced.at, spaced.at + needle.length)) unquoted = true;
      continue;
    }
    if (packed.length < 8) continue;
    compacted ??= views.map((v) => compact(v.text));
    if (compacted.some((c) => c.includes(packed))) {
      matched.push(phrase);
      unquoted = true;
    }
  }
  return { matched, unquoted };
}

/** Tag characters, bidi controls, private-use characters or a run of three or more invisible characters. */
export function suspiciousInvisible(report: InvisibleReport): boolean {
  return (
    report.kinds.some((k) => k === 'tag' || k === 'bidi' || k === 'private_use') || report.longestRun >= 3
  );
}

export function analyseInjection(
  input: string,
  settings: InjectionSettings,
  model: LogisticWeights,
): InjectionAnalysis {
  const invisible = scanInvisible(input);
  const views = textViews(input);
  if (invisible.smuggled.length > 0)
    views.push(...textViews(invisible.smuggled).map((v) => ({ ...v, label: 'tags' as const })));
  const patterns = scorePatterns(views);
  const primary = primaryView(views);
  const statisticalScore = predict(model, injectionFeatures(primary, patterns));
  const banned = matchBanned(views, settings.banSubstrings);
  const invisibleSuspicious = settings.invisibleCharCheck && suspiciousInvisible(invisible);
  // The hand-written rules are narrow but precise (no false positive on the
  // blind benign rows): a strong rule hit stands on its own as a floor, as a
  // banned substring does, instead of being only one feature of the model.
  let score = Math.max(statisticalScore, patterns.score);
  if (banned.unquoted) score = Math.max(score, BANNED_FLOOR);
  if (invisibleSuspicious) score = Math.max(score, INVISIBLE_FLOOR);
  // A language the detector was not built for gets an unsure answer, never a confident "clean".
  const lang = languageCoverage(primary.text.slice(0, 4000), INJECTION_LANGUAGES);
  if (!lang.covered) score = uncoveredScore(score);
  return {
    score,
    detected: score >= settings.threshold,
    statisticalScore,
    patterns,
    banned: banned.matched,
    invisible,
    invisibleSuspicious,
    decodings: [...new Set(views.map((v) => v.label))].filter((l) => l !== 'raw'),
    language: lang.language,
    languageCovered: lang.covered,
  };
}
