// Graded English lexicons written for this project (severity 0..1 per term),
// plus small French/Spanish/German lists for the multilingual mode. Slur
// entries name their usual target so identity attacks can be scored; terms
// with common harmless senses or reclaimed in-group use are marked so that
// context rules can discount them.

export type LexCategory = 'slur' | 'dehumanizing' | 'insult' | 'negative_emotion' | 'threat' | 'profanity' | 'identity';

export interface LexEntry {
  category: LexCategory;
  severity: number;
  /** Has a common harmless sense (faggot the food, hoe the tool, queer = strange). */
  homonym?: boolean;
  /** Used as an in-group, reclaimed term. */
  reclaimable?: boolean;
}

const SLURS: Record<string, number> = {
  nigger: 1, niggers: 1, nigga: 0.8, niggas: 0.8, kike: 1, kikes: 1, spic: 0.9, spics: 0.9, chink: 0.9, chinks: 0.9,
  gook: 0.9, wetback: 0.9, wetbacks: 0.9, raghead: 0.9, ragheads: 0.9, towelhead: 0.9, towelheads: 0.9, paki: 0.9,
  pakis: 0.9, coon: 0.9, coons: 0.9, faggot: 1, faggots: 1, fag: 0.9, fags: 0.9, dyke: 0.8, dykes: 0.8, tranny: 0.9,
  trannies: 0.9, shemale: 0.8, shemales: 0.8, retard: 0.9, retards: 0.9, retarded: 0.8, mong: 0.8, mongs: 0.8,
  spastic: 0.8, spastics: 0.8, cripple: 0.7, cripples: 0.7, rapefugee: 1, rapefugees: 1, jihadi: 0.8, jihadis: 0.8,
  muzzie: 0.9, muzzies: 0.9, slut: 0.7, sluts: 0.7, whore: 0.7, whores: 0.7, bitch: 0.6, bitches: 0.6, cunt: 0.8,
  cunts: 0.8, hoe: 0.6, hoes: 0.6, queer: 0.5, queers: 0.6, homo: 0.7, homos: 0.7, illegals: 0.6, savages: 0.7,
};
const HOMONYMS = new Set(['faggot', 'faggots', 'hoe', 'hoes', 'queer', 'dyke', 'dykes', 'coon', 'bitch', 'bitches', 'cripple', 'mong']);
const RECLAIMABLE = new Set(['nigga', 'niggas', 'queer', 'queers', 'dyke', 'dykes', 'bitch', 'bitches', 'fag', 'fags', 'slut', 'sluts', 'hoe', 'hoes', 'homo', 'homos']);

const DEHUMANIZING: Record<string, number> = {
  parasite: 0.9, parasites: 0.9, pest: 0.9, pests: 0.9, vermin: 0.95, rat: 0.7, rats: 0.8, cockroach: 0.9,
  cockroaches: 0.9, scum: 0.9, trash: 0.8, garbage: 0.8, filth: 0.85, filthy: 0.7, plague: 0.8, cancer: 0.7,
  disease: 0.7, subhuman: 1, animals: 0.6, savage: 0.7, apes: 0.8, monkeys: 0.7, monkey: 0.6, pigs: 0.7,
  swine: 0.8, lesser: 0.6, worthless: 0.8, inferior: 0.8, zoo: 0.6, creatures: 0.5, infestation: 0.9,
};

const INSULTS: Record<string, number> = {
  stupid: 0.7, idiot: 0.8, idiots: 0.8, moron: 0.8, morons: 0.8, dumb: 0.6, pathetic: 0.7, disgusting: 0.8,
  repugnant: 0.8, sickening: 0.8, vile: 0.85, despicable: 0.85, repulsive: 0.85, revolting: 0.8, ignorant: 0.6,
  dishonest: 0.6, lazy: 0.55, useless: 0.7, evil: 0.7, dangerous: 0.5, dirty: 0.6, ugly: 0.6, loser: 0.7, losers: 0.7,
  scumbag: 0.9, scumbags: 0.9, freak: 0.7, freaks: 0.7, gross: 0.6, hideous: 0.7,
  criminals: 0.6, liars: 0.6, incompetent: 0.6, nasty: 0.6, abomination: 0.9, degenerate: 0.85, degenerates: 0.85,
  disgrace: 0.7, cruel: 0.4, violent: 0.4, primitive: 0.6, backward: 0.5, threat: 0.4, menace: 0.6,
};

const NEGATIVE_EMOTION: Record<string, number> = {
  hate: 0.8, hatred: 0.8, detest: 0.85, despise: 0.85, loathe: 0.85, contempt: 0.8, disgust: 0.75, disgusted: 0.75,
  disgusts: 0.75, sick: 0.5, revulsion: 0.8, stand: 0.2, angry: 0.4, resent: 0.6,
};

const THREATS: Record<string, number> = {
  kill: 0.9, killed: 0.8, killing: 0.8, murder: 0.9, murdered: 0.8, shoot: 0.85, shot: 0.75, hang: 0.8, hanged: 0.8,
  stab: 0.85, burn: 0.6, slaughter: 0.9, exterminate: 0.95, exterminated: 0.95, eradicate: 0.9, eradicated: 0.9,
  gas: 0.6, gassed: 0.9, lynch: 0.95, lynched: 0.95, beat: 0.5, torture: 0.9, tortured: 0.9, rape: 0.95, raping: 0.95,
  raped: 0.9, die: 0.7, death: 0.6, dead: 0.5, execute: 0.7, executed: 0.7, bomb: 0.7, massacre: 0.95, wipe: 0.5,
  destroy: 0.6, hurt: 0.6, punch: 0.6, strangle: 0.9, drown: 0.8, deport: 0.5, eliminate: 0.7, necks: 0.7,
};

const PROFANITY: Record<string, number> = {
  fuck: 0.8, fucking: 0.7, fucked: 0.7, fucker: 0.85, fuckers: 0.85, motherfucker: 0.9, shit: 0.6, shitty: 0.6,
  bullshit: 0.6, ass: 0.5, asshole: 0.75, assholes: 0.75, dumbass: 0.7, bastard: 0.7, bastards: 0.7, damn: 0.3,
  crap: 0.4, piss: 0.5, dick: 0.6, dickhead: 0.75, prick: 0.7, twat: 0.8, wanker: 0.75, bollocks: 0.5, hell: 0.2,
};

/** Protected-group terms: plural/adjectival forms that name a group. */
const IDENTITY: readonly string[] = [
  'women', 'woman', 'girls', 'females', 'female', 'trans', 'transgender', 'gay', 'gays', 'lesbian', 'lesbians',
  'homosexual', 'homosexuals', 'bisexual', 'bisexuals', 'lgbt', 'lgbtq', 'black', 'blacks', 'disabled', 'handicapped',
  'muslim', 'muslims', 'islam', 'immigrant', 'immigrants', 'refugee', 'refugees', 'migrant', 'migrants', 'foreigners',
  'jew', 'jews', 'jewish', 'asian', 'asians', 'latino', 'latinos', 'mexican', 'mexicans', 'arab', 'arabs', 'hindu',
  'hindus', 'christian', 'christians', 'jewess', 'chinese', 'africans', 'african', 'roma', 'gypsies', 'sikh', 'sikhs',
];

const MULTILINGUAL: Record<string, [LexCategory, number]> = {
  // French
  connard: ['insult', 0.8], connards: ['insult', 0.8], salope: ['slur', 0.8], pute: ['slur', 0.7], encule: ['slur', 0.9],
  pede: ['slur', 0.9], bougnoule: ['slur', 1], merde: ['profanity', 0.6], putain: ['profanity', 0.6], tuer: ['threat', 0.9],
  deteste: ['negative_emotion', 0.8], vermine: ['dehumanizing', 0.95], ordure: ['dehumanizing', 0.85],
  // Spanish
  maricon: ['slur', 0.9], puta: ['slur', 0.7], pendejo: ['insult', 0.8], mierda: ['profanity', 0.6], matar: ['threat', 0.9],
  odio: ['negative_emotion', 0.8], basura: ['dehumanizing', 0.8], sudaca: ['slur', 0.9],
  // German
  schwuchtel: ['slur', 0.9], hure: ['slur', 0.7], arschloch: ['insult', 0.8], scheisse: ['profanity', 0.6],
  toten: ['threat', 0.9], hasse: ['negative_emotion', 0.8], ungeziefer: ['dehumanizing', 0.95], abschaum: ['dehumanizing', 0.9],
};

function table(words: Record<string, number>, category: LexCategory): [string, LexEntry][] {
  return Object.entries(words).map(([w, severity]) => [
    w,
    { category, severity, ...(HOMONYMS.has(w) ? { homonym: true } : {}), ...(RECLAIMABLE.has(w) ? { reclaimable: true } : {}) },
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

export const MULTILINGUAL_LEXICON: ReadonlyMap<string, LexEntry> = new Map(
  Object.entries(MULTILINGUAL).map(([w, [category, severity]]) => [w, { category, severity }]),
);

/** Words of at least 4 letters worth fuzzy-matching (typos, swapped or dropped letters). */
export const FUZZY_TARGETS: readonly string[] = [...LEXICON.keys()].filter((w) => w.length >= 4);
