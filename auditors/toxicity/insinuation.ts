// Insinuation (round 3 of issue 17): implicit hate often carries no hostile
// word and no exclusion construction, only the rhetoric around a group
// term: a disclaimer ("I'm not racist but", "not saying all"), a wink
// ("funny how", "we all know why", "strike again"), a backhanded compliment
// ("articulate for a"), an essentialist or conspiratorial claim ("still a
// man", "control the media", "more rights than"). A marker counts only in a
// text that names a protected group and only in the writer's own words
// (not reported, quoted or rejected speech, frames.ts), so counter-speech
// that names the rhetoric ("funny how 'diversity hire' only gets said
// about …") is left to the counter-speech frame. The statistical layer
// learns how much each kind counts; written for this project from general
// knowledge of the rhetoric, not from any data set.
import type { FrameStatus } from './frames.ts';

/** Marker phrases by kind, over canonical tokens (group terms are `<id>`). */
const MARKERS: Record<string, readonly string[]> = {
  disclaimer: [
    "i'm not racist",
    'not racist but',
    'no offense but',
    'no offence but',
    'not saying all',
    'not saying every',
    "i'm not saying",
    'just saying',
    'just asking',
    'just an observation',
    'say what you want',
    "facts don't care",
  ],
  wink: [
    'funny how',
    'ever notice',
    'ever noticed',
    'notice how',
    'coincidence',
    'we all know',
    'you know why',
    'everyone knows',
    'everybody knows',
    'no surprise',
    'surprise surprise',
    'strike again',
    'strikes again',
    'as usual',
    'typical',
    "it's always",
    'always the',
    'every single time',
    'another day another',
    'you know what they',
    'what did you expect',
  ],
  backhanded: [
    'articulate for',
    'well spoken for',
    'well-spoken for',
    'smart for a',
    'pretty for a',
    'clean for a',
    'one of the good ones',
    'not like the others',
    'surprisingly',
  ],
  essentialist: [
    'still a man',
    'still a woman',
    'just a phase',
    'a trend',
    'mentally ill',
    'diversity hire',
    'diversity hires',
    'token hire',
    'basic biology',
    'their culture',
    'their kind',
    'those people',
    'these people',
    'that lot',
    'real persecuted',
    'so-called',
    'so called',
  ],
  takeover: [
    'more rights than',
    'special treatment',
    'free money',
    'handouts',
    'welfare',
    'outbreed',
    'outbreeding',
    'take over',
    'taking over',
    'handed to',
    'in our own country',
    'stops being ours',
    'crime statistics',
    'crime rate',
    'the numbers',
    'control the media',
    'control the banks',
    'running the banks',
    'own the banks',
    'own the media',
    'every table',
    'pull the strings',
    'globalist',
    'globalists',
  ],
  // Round 4: tweet-style stereotypes ("jew owned", "smell like", "back to the kitchen", "need a real man").
  stereotype: [
    ...['<id> owned', '<id>-owned', '<id> run', '<id> controlled', 'smell like', 'smells like', 'stink'],
    ...['stinks', 'reek', 'groomer', 'groomers', 'back to the kitchen', 'make me a sandwich'],
    ...['need the right guy', 'need a real man', 'needs a real man', 'need the right man', 'the right dick'],
    ...['felt like i was in', 'breed like', 'ruin every', 'ruins every'],
  ],
};

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One regex per kind over the space-joined canonical tokens, phrases on whole words. */
const MARKER_RES: readonly (readonly [string, RegExp])[] = Object.entries(MARKERS).map(([kind, phrases]) => [
  kind,
  new RegExp(`(?<![\\p{L}\\p{N}'])(?:${phrases.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'gu'),
]);

export type InsinuationKind = keyof typeof MARKERS;
export const INSINUATION_KINDS = Object.keys(MARKERS);

/**
 * Insinuation markers in the writer's own words of a text naming a group,
 * counted per kind. `status[i]` ≥ 2 marks token i as reported or rejected
 * speech (frames.ts), so a marker starting there does not count.
 */
export function insinuation(
  canonical: readonly string[],
  status: readonly FrameStatus[],
): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(INSINUATION_KINDS.map((k) => [k, 0]));
  if (!canonical.includes('<id>')) return out;
  const starts: number[] = [];
  let text = '';
  for (const t of canonical) {
    if (text) text += ' ';
    starts.push(text.length);
    text += t;
  }
  const tokenAt = (offset: number): number => {
    let [lo, hi] = [0, starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (const [kind, re] of MARKER_RES) {
    for (const m of text.matchAll(re)) if ((status[tokenAt(m.index)] ?? 0) < 2) out[kind]! += 1;
  }
  return out;
}
