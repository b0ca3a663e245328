// Graded English lexicons written for this project (severity 0..1 per term),
// plus small French/Spanish/German lists for the multilingual mode. Slur
// entries name their usual target so identity attacks can be scored; terms
// with common harmless senses or reclaimed in-group use are marked so that
// context rules can discount them.

import { DEHUMANIZING, EXTRA_TERMS, INSULTS, NEGATIVE_EMOTION, PROFANITY, THREATS } from './lexicon-terms.ts';

export type LexCategory =
  'slur' | 'dehumanizing' | 'insult' | 'negative_emotion' | 'threat' | 'profanity' | 'identity';

export interface LexEntry {
  category: LexCategory;
  severity: number;
  /** Has a common harmless sense (faggot the food, hoe the tool, queer = strange). */
  homonym?: boolean;
  /** Used as an in-group, reclaimed term. */
  reclaimable?: boolean;
}

const SLURS: Record<string, number> = {
  // Round 4: tweet-style slurs.
  lesbo: 0.8,
  lesbos: 0.8,
  feminazi: 0.7,
  feminazis: 0.7,
  nigger: 1,
  niggers: 1,
  nigga: 0.8,
  niggas: 0.8,
  kike: 1,
  kikes: 1,
  spic: 0.9,
  spics: 0.9,
  chink: 0.9,
  chinks: 0.9,
  gook: 0.9,
  wetback: 0.9,
  wetbacks: 0.9,
  raghead: 0.9,
  ragheads: 0.9,
  towelhead: 0.9,
  towelheads: 0.9,
  paki: 0.9,
  pakis: 0.9,
  coon: 0.9,
  coons: 0.9,
  faggot: 1,
  faggots: 1,
  fag: 0.9,
  fags: 0.9,
  dyke: 0.8,
  dykes: 0.8,
  tranny: 0.9,
  trannies: 0.9,
  shemale: 0.8,
  shemales: 0.8,
  retard: 0.9,
  retards: 0.9,
  retarded: 0.8,
  mong: 0.8,
  mongs: 0.8,
  spastic: 0.8,
  spastics: 0.8,
  cripple: 0.7,
  cripples: 0.7,
  rapefugee: 1,
  rapefugees: 1,
  jihadi: 0.8,
  jihadis: 0.8,
  muzzie: 0.9,
  muzzies: 0.9,
  slut: 0.7,
  sluts: 0.7,
  whore: 0.7,
  whores: 0.7,
  bitch: 0.6,
  bitches: 0.6,
  cunt: 0.8,
  cunts: 0.8,
  hoe: 0.6,
  hoes: 0.6,
  queer: 0.5,
  queers: 0.6,
  homo: 0.7,
  homos: 0.7,
  illegals: 0.6,
  savages: 0.7,
};
const HOMONYMS = new Set([
  // Round 4: British "fag(s)" (cigarettes), "chink" (of light, in the armour), "spic" (Spic and Span).
  ...['fag', 'fags', 'coons', 'chink', 'chinks', 'spic'],
  'faggot',
  'faggots',
  'hoe',
  'hoes',
  'queer',
  'dyke',
  'dykes',
  'coon',
  'bitch',
  'bitches',
  'cripple',
  'mong',
]);
const RECLAIMABLE = new Set([
  'nigga',
  'niggas',
  'queer',
  'queers',
  'dyke',
  'dykes',
  'bitch',
  'bitches',
  'fag',
  'fags',
  'slut',
  'sluts',
  'hoe',
  'hoes',
  'homo',
  'homos',
]);

/** Protected-group terms: plural/adjectival forms that name a group. */
const IDENTITY: readonly string[] = [
  'women',
  'woman',
  'girls',
  'females',
  'female',
  'trans',
  'transgender',
  'gay',
  'gays',
  'lesbian',
  'lesbians',
  'homosexual',
  'homosexuals',
  'bisexual',
  'bisexuals',
  'lgbt',
  'lgbtq',
  'black',
  'blacks',
  'disabled',
  'handicapped',
  'muslim',
  'muslims',
  'islam',
  'immigrant',
  'immigrants',
  'refugee',
  'refugees',
  'migrant',
  'migrants',
  'foreigners',
  'jew',
  'jews',
  'jewish',
  'asian',
  'asians',
  'latino',
  'latinos',
  'mexican',
  'mexicans',
  'arab',
  'arabs',
  'hindu',
  'hindus',
  'christian',
  'christians',
  'jewess',
  'chinese',
  'africans',
  'african',
  'roma',
  'gypsies',
  'sikh',
  'sikhs',
  // Round 3: more national, ethnic and religious groups, and disability and gender terms.
  ...['somali', 'somalis', 'pakistani', 'pakistanis', 'nigerian', 'nigerians', 'syrian', 'syrians'],
  ...['afghan', 'afghans', 'romanian', 'romanians', 'turks', 'iranian', 'iranians', 'hispanic'],
  ...['hispanics', 'latina', 'latinas', 'buddhist', 'buddhists', 'catholics', 'aboriginal'],
  ...['indigenous', 'queer', 'nonbinary', 'non-binary', 'autistic', 'asylum-seekers', 'muslima'], // Round 4: terms in tweet-style text.
  ...['hijabi', 'hijabis', 'gypsy', 'lesbians', 'bisexuals', 'palestinians', 'israelis', 'ukrainians'],
];

function table(words: Record<string, number>, category: LexCategory): [string, LexEntry][] {
  return Object.entries(words).map(([w, severity]) => [
    w,
    {
      category,
      severity,
      ...(HOMONYMS.has(w) ? { homonym: true } : {}),
      ...(RECLAIMABLE.has(w) ? { reclaimable: true } : {}),
    },
  ]);
}

/** English lexicon: word → entry. A word in several tables keeps the last (identity > slur > dehumanizing > ...). */
export const LEXICON: ReadonlyMap<string, LexEntry> = new Map([
  ...table(PROFANITY, 'profanity'),
  ...table(THREATS, 'threat'),
  ...table(NEGATIVE_EMOTION, 'negative_emotion'),
  ...table(INSULTS, 'insult'),
  ...table(DEHUMANIZING, 'dehumanizing'),
  ...table(SLURS, 'slur'),
  ...IDENTITY.map((w): [string, LexEntry] => [w, { category: 'identity', severity: 0 }]),
]);

export { MULTILINGUAL_LEXICON } from './lexicon-multilingual.ts';

/** Words of at least 4 letters worth fuzzy-matching (typos, swapped or dropped letters). */
export const FUZZY_TARGETS: readonly string[] = [...LEXICON.keys()].filter(
  (w) => w.length >= 4 && (!EXTRA_TERMS.has(w) || w.length >= 7),
);
