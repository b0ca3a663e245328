// The writer's own hostility, read from structure rather than wording: an
// emotion word whose experiencer is the writer ("I despise", "they make me
// sick", "fills me with disgust") and a threat word under the writer's
// intent ("I'll", "we are going to", "let's"). Both generalise to hostile
// words the model never saw in these constructions.
import { ADVERBS, FIRST_PERSON } from './cues.ts';
import type { FramedHit } from './counter.ts';
import type { FrameStatus } from './frames.ts';
import type { TokenStream } from './stream.ts';

export interface WriterAttitude {
  /** Strongest negative emotion the writer states as their own (0 when none). */
  emotion: number;
  /** Strongest threat the writer states as their own intent (0 when none). */
  intent: number;
}

const FIRST_OWNER = new Set([...FIRST_PERSON, 'my', 'our']);
const INTENT = new Set([
  'will',
  "i'll",
  "we'll",
  'gonna',
  'going',
  'want',
  'wanna',
  'shall',
  'plan',
  'intend',
]);
const SELF_INTENT = new Set(["i'll", "we'll", "let's", 'lets']);

function sameClause(s: TokenStream, i: number, j: number): boolean {
  return s.sentence[i] === s.sentence[j] && !s.comma[Math.min(i, j)];
}

/** The writer feels it: "I (really) hate", "my contempt", "makes me sick", "disgust me". */
function writerFeels(s: TokenStream, i: number): boolean {
  const t = s.tokens;
  if ([t[i + 1], t[i + 2]].some((w) => w === 'me' || w === 'us')) return true;
  for (let j = i - 1, seen = 0; j >= Math.max(0, i - 8) && seen < 3 && sameClause(s, j, i); j--) {
    if (FIRST_OWNER.has(t[j]!)) return true;
    if (!ADVERBS.has(t[j]!)) seen++;
  }
  return false;
}

/** The writer means to do it: a first-person subject and a verb of intent within the clause before it. */
function writerIntends(s: TokenStream, i: number): boolean {
  const t = s.tokens;
  let intent = false;
  for (let j = i - 1; j >= Math.max(0, i - 6) && sameClause(s, j, i); j--) {
    if (SELF_INTENT.has(t[j]!)) return true;
    if (INTENT.has(t[j]!)) intent = true;
    else if (intent && FIRST_PERSON.has(t[j]!)) return true;
  }
  return false;
}

export function writerAttitude(
  s: TokenStream,
  status: readonly FrameStatus[],
  hits: readonly FramedHit[],
): WriterAttitude {
  let emotion = 0;
  let intent = 0;
  for (const h of hits) {
    if (h.negated || status[h.index]! >= 2) continue;
    if (h.category === 'negative_emotion' && writerFeels(s, h.index)) emotion = Math.max(emotion, h.severity);
    if (h.category === 'threat' && writerIntends(s, h.index)) intent = Math.max(intent, h.severity);
  }
  return { emotion, intent };
}
