// Hate with no hostile word, read from the construction a protected group
// sits in rather than from vocabulary (the lexicons cannot list every way of
// saying "they should not be here"):
//   - exclusion: a restriction, removal or not-belonging predicate whose
//     subject or object is the group ("X should not be allowed to ...",
//     "send X back", "X don't belong here", "X are a burden on ...");
//   - loaded question: a question whose presupposition is the group's
//     inferiority ("Why are X so ...?", "Who would hire a X?", "Do X even
//     ...?"), as opposed to questions asked in good faith;
//   - harm wish: harm wished on, or left to others to do to, the group ("I hope
//     X get what's coming", "someone should deal with them", "they'll pay");
//   - victim: the group as the object of hostility ("abuse against X", "the
//     hate X receive", "how X are treated"), which is how news and
//     counter-speech mention hate without repeating it.
// Patterns run per sentence over the canonical tokens (group terms are
// `<id>`), with bounded gaps; a match counts only when none of its tokens is
// reported or rejected speech (frames.ts) and its predicate is not negated.
import { POSITIVE, SAY_VERBS } from './cues.ts';
import type { FrameStatus } from './frames.ts';
import { negatedAt } from './negation.ts';
import type { TokenStream } from './stream.ts';

export interface ImplicitHate {
  exclusion: number;
  loadedQuestion: number;
  harmWish: number;
  /** An exclusion or harm wish that is someone else's reported words ("a councillor claimed X should be ..."). */
  reported: number;
  /** The group is named as the victim of hostility (news, counter-speech). */
  victim: number;
  /** Sentences with a victim frame (hostile words there describe what the group suffers). */
  victimSentences: ReadonlySet<number>;
}

// A group: optional quantifier / determiner, one or more group terms, an optional head noun.
const G = String.raw`(?:(?:all|the|those|these|any|more|every|most|some|of|a|an|our|your) ){0,2}<id>(?: <id>)*(?: (?:people|persons|person|folks?|men|man|ones|kids|families|lot))?`;
const PRON = String.raw`(?:they|them|those people|these people|their kind|that lot)`;
const GS = `(?:${G}|${PRON})`;
const GAP = String.raw`(?:\S+ ){0,2}`;
const MODAL = String.raw`(?:should|must|better|had better|shall|ought to|need to|needs to|have to|has to|deserve to|deserves to|gotta|got to|has got to|have got to)`;
const NOT_ALLOWED = String.raw`(?:shouldn't|mustn't|can't|cannot|won't|wouldn't|would not|would never|should not|should never|must not|must never|can not|can never|will never|ought not to|ought never to|may not|may never)`;
/** After "go back / home / out": only an end or a destination that is not here ("go back to work" is not expulsion). */
const GONE = String.raw`(?=$| (?:now|already|immediately|for good|where|to where|home|to (?:their|your|his|her) (?:own )?(?:country|countries|homeland|land)|out of (?:this|our|my|here))\b)`;
const REMOVAL = String.raw`(?:<threat>|deported|expelled|banned|barred|excluded|removed|kicked out|thrown out|locked up|caged|segregated|sterilised|sterilized|rounded up|sent back|sent home|shipped back|shipped off|kept out|kept away|driven out|run out|purged|interned|gotten rid of|got rid of)`;
const EXPEL_VERB = String.raw`(?:send|ship|deport|kick|throw|drive|chase|boot|keep|ban|bar|exclude|remove|purge|expel|lock|cage|round|force|run)`;
const BURDEN = String.raw`(?:disease|cancer|plague|burden|drain|stain|blight|scourge|curse|infection|poison|virus|problem|threat|menace|danger|parasite|leech|weight)`;
const RUIN = String.raw`(?:ruin|ruining|ruined|ruins|destroy|destroying|destroys|destroyed|wreck|wrecking|wrecked|poison|poisoning|infest|infesting|invade|invading|invaded|take over|taking over|took over|replace|replacing|overrun|overrunning|outbreed|outbreeding|degrade|degrading|spoil|spoiling|doom|dooming)`;

const EXCLUSION: readonly RegExp[] = [
  new RegExp(
    String.raw`(?<g>${GS}) ${GAP}${NOT_ALLOWED} (?:\S+ )?be (?:allowed|permitted|let|trusted)\b`,
    'd',
  ),
  new RegExp(String.raw`(?<g>${GS}) (?:\S+ ){0,2}?${MODAL} (?:\S+ ){0,2}?(?<p>${REMOVAL})\b`, 'd'),
  new RegExp(
    String.raw`(?:^|\b(?:we|to|should|must|let's|lets|just|and|please|gotta) )(?<p>${EXPEL_VERB}) (?<g>${G}) (?:\S+ )?(?:back|out|away|home|up|off|from)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:^|\b(?:we|to|should|must|let's|lets|just|and|please|gotta) )(?<p>round|lock|send|ship|kick|throw|drive|chase|run) (?:up|out|away|back|off) (?<g>${G})`,
    'd',
  ),
  new RegExp(
    String.raw`(?:^|\b(?:we|to|should|must|let's|lets|just|and|please|gotta) )(?<p>get) (?<g>${G}) out(?= of (?:our|this|my|here)\b| now\b|$)`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${GS}) ${GAP}(?:don't|do not|doesn't|does not|never|will never|can never|won't|cannot|can't) (?:\S+ )?(?:belong|fit in)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${GS}) (?:have|has) no (?:place|business|right|reason) (?:being|to be|in|here|on|at|to (?:live|be|work|vote|stay|exist|come|marry|teach|serve))\b`,
    'd',
  ),
  new RegExp(String.raw`back (?:to )?where (?:they|you|(?:\S+ )?<id>) (?:came|come) from\b`, 'd'),
  new RegExp(
    String.raw`^(?<g>${G}) (?:\S+ )?(?<p>(?:go|get|should go|must go|should get|must get|can go) (?:back|out|home))${GONE}`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${GS}) (?:\S+ )?${MODAL} (?:just |all |simply |really )?(?<p>go|get|be sent|head) (?:back|out|home)${GONE}`,
    'd',
  ),
  new RegExp(String.raw`^no (?<g>${G}) (?:allowed|wanted|welcome|permitted)\b`, 'd'),
  new RegExp(
    String.raw`(?<g>${G}) (?:is|are|were|was) (?:a|an|the) (?:\S+ )?(?<p>${BURDEN}) (?:on|to|for|in|upon|of)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:was|were|used to be) (?:\S+ ){0,2}(?:fine|better|safe|safer|nicer|great|good|peaceful|clean|cleaner|lovely|quiet|nice|decent|normal) (?:\S+ ){0,3}(?:before|until|till) (?<g>${G}) (?:\S+ )?(?:moved|came|arrived|showed|took|started|got|turned)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:should|must|need|needs) (?:\S+ ){0,4}(?<p>keeping|banning|sending|kicking|locking|deporting|barring|excluding) (?<g>${G}) (?:\S+ )?(?:back|out|away|home|up|off|from)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:downhill|worse|wrong|problems?|trouble|issues|mess|decline) (?:\S+ ){0,3}(?:since|before|until|once|when|after) (?<g>${G}) (?:\S+ )?(?:arrived|came|moved|showed|started|got here|turned up)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:allowing|letting|admitting|accepting|hiring|electing) (?:\S+ ){0,2}(?<g>${G}) (?:\S+ ){0,4}(?:will|would|is going to|are going to) (?:\S+ )?(?<p>${RUIN})\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${G}) (?:\S+ ){0,2}(?<p>${RUIN}) (?:\S+ )?(?:our|this|the|my|everything|society|us)\b`,
    'd',
  ),
];

/**
 * "I don't want X anywhere near ...": the writer's negated wish is the
 * construction itself (negation raising), so only the match's start must be the writer's.
 */
const UNWANTED: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(?:i|we) (?:don't|do not|never) want (?<g>${G}) (?:anywhere near|near|around|living|moving|working|in (?:my|our|this))\b`,
    'd',
  ),
];

const VICTIM_PARTICIPLE =
  /^(?:\S+ed|being|getting|get|gets|face|suffer|experience|receive|endure|struggle|seem|paid|seen|hit|made|left|given|taken|shown)$/;
const QUESTION: readonly RegExp[] = [
  new RegExp(
    String.raw`^why (?:is it that |is it )?(?:(?:are|is|do|does|did|can't|cannot|won't|don't|doesn't|can|must|would) )?(?:\S+ )?(?<g>${GS}) (?:\S+ )?(?<m>so|always|never|even|ever|constantly|all|just)(?: so)? (?<n>\S+)`,
    'd',
  ),
  new RegExp(
    String.raw`^(?:who|what \S+|why)(?: in (?:their|his|her|your) right mind)? (?:would|could|will|'d)(?: \S+){0,2}? (?:ever )?(?:\S+ ){0,2}?(?:hire|trust|marry|date|employ|rent to|vote for|love|befriend|respect|believe|listen to|live next to|work with|sit next to|be friends with) (?<g>${G})`,
    'd',
  ),
  new RegExp(
    String.raw`^how (?:can|could|would|do|does|is) (?:anyone|anybody|you|we|people|one|someone|somebody) (?:\S+ )?(?:put up with|deal with|trust|respect|like|love|hire|marry|date|stand|tolerate|believe|take|befriend|employ|vote for|live with) (?<g>${G})`,
    'd',
  ),
  new RegExp(
    String.raw`^why (?:should (?:we|anyone|i|society|the country|taxpayers|you)|(?:do|does|would|must) (?:we|anyone|society|the country|taxpayers|you|they) (?:keep|still|even|continue to|bother)) (?:\S+ )?(?:let|letting|allow|allowing|tolerating|accepting|hiring|welcoming|helping|housing|supporting|paying for|tolerate|accept|trust|hire|pay for|put up with|welcome|respect|listen to|care about|feed|house|support) (?<g>${GS})`,
    'd',
  ),
  new RegExp(
    String.raw`^(?:do|does|did|are|is|can|could|would|will|have|has) (?<g>${G}) (?:even|ever) (?:\S+ )?(?:understand|know|count|matter|contribute|care|think|work|bother|deserve|belong|qualify|try|human|capable|intelligent|smart|able|worth|useful|done|wash|learn|pay|stop|shut|do anything)\b`,
    'd',
  ),
  new RegExp(String.raw`^since when (?:do|does|did|are|is|can|should|have) (?<g>${GS})`, 'd'),
  new RegExp(
    String.raw`^what (?:have|has|did) (?<g>${GS}) (?:ever|even) (?:done|contributed|achieved|given|built|invented)\b`,
    'd',
  ),
  new RegExp(String.raw`^what (?:use|good|purpose) (?:are|is|do|does) (?<g>${GS})`, 'd'),
  new RegExp(String.raw`^what'?s the (?:point|use) of (?<g>${GS})`, 'd'),
];

const HARM_END = String.raw`(?:die|dies|suffer|suffers|rot|rots|burn|burns|disappear|disappears|vanish|vanishes|perish|perishes|drown|drowns|starve|starves|choke|chokes|pay|pays|leave forever|go away|get what'?s coming|gets what'?s coming|get what is coming|get what they deserve|gets what (?:he|she|they) deserves?|get theirs|get sick|get hurt|get beaten|get what they have coming)`;
const HARM_WISH: readonly RegExp[] = [
  new RegExp(
    String.raw`\b(?:i|we|i'd|we'd) (?:\S+ )?(?:hope|wish|pray|would love|want|love it if) (?:that )?(?:\S+ ){0,3}(?<g>${GS}) (?:\S+ ){0,4}?(?<p>${HARM_END})\b`,
    'd',
  ),
  new RegExp(
    String.raw`\b(?:someone|somebody|anyone|people|we|you|the government|the police|they) (?:\S+ ){0,1}(?:should|needs to|need to|ought to|has to|have to|must|will|gotta|is going to|are going to|better|had better) (?:\S+ ){0,1}(?<p>deal with|take care of|do something about|sort out|handle|teach|put|shut up|get rid of|clean up|take out|finish off|wipe out) (?<g>${GS})`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${GS}) (?:\S+ ){0,2}(?:need|needs|should|must|ought|have|has|deserve|deserves) to be (?:\S+ )?(?<p>dealt with|taken care of|taught a lesson|put in their place|sorted out|handled|silenced|stopped|wiped out|cleaned out|eradicated|purged|gotten rid of|got rid of|finished off|taken out)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:(?<g>${GS}) (?:\S+ ){0,2}(?:will|are going to|are gonna|shall|is going to)|they'll|they will|they're going to|they're gonna) (?:\S+ ){0,2}?(?<p>get what'?s coming|get what is coming|get what they deserve|get what (?:they|he|she)(?: have|'ve)? (?:got )?coming|pay for|pay dearly|regret|be sorry|learn their lesson|learn their place|get theirs|have it coming|soon be gone|not be around)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?:world|country|society|life|place|town|city|everyone|everything|we|things|planet|earth) (?:\S+ ){0,2}(?:would|will|'d) (?:\S+ )?be (?:\S+ )?(?<p>better|safer|nicer|cleaner|happier|great|good)(?: off)? (?:without|if we got rid of|once we get rid of) (?<g>${GS})`,
    'd',
  ),
  new RegExp(
    String.raw`(?:better|nicer|safer|best)(?: off| world| place| country)? if (?<g>${GS}) (?:\S+ )?(?:didn't exist|did not exist|were gone|disappeared|vanished|weren't here|were not here|all died|never existed|left for good)`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${GS}) (?:\S+ ){0,4}(?:had better|'d better|better) (?:watch (?:their|your|his|her|our) backs?|run|hide|leave|start running|be careful)\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${GS}) (?:\S+ ){0,2}(?:should|better|had better|ought to|need to|needs to) (?:\S+ )?be (?<p>afraid|scared|terrified)\b`,
    'd',
  ),
  new RegExp(
    String.raw`\b(?:we|we're|i|i'm|we'll|i'll) (?:\S+ )?(?<p>come|coming) for (?<g>them|you|${G})`,
    'd',
  ),
  new RegExp(
    String.raw`the sooner (?<g>${GS}) (?:\S+ )?(?<p>are gone|is gone|leave|go|die|disappear|vanish|get out)\b`,
    'd',
  ),
  new RegExp(
    String.raw`\b(?:someone|somebody|we|you|people) (?:\S+ )?(?:should|needs to|need to|ought to|must|will|has to|have to) (?:\S+ )?make (?<g>${GS}) (?:\S+ )?(?<p>regret|pay|suffer|sorry|leave|disappear)\b`,
    'd',
  ),
  new RegExp(String.raw`(?:(?<g>${G})|their) days (?:are|is) numbered\b`, 'd'),
  // Round 4, veiled threats: intimidation that names no threat word ("show X what happens",
  // "X … leaving in an ambulance", "X … getting their teeth kicked in", "X deserve a slap").
  new RegExp(String.raw`\b(?:show|teach) (?<g>${GS}) (?<p>what happens)\b`, 'd'),
  new RegExp(
    String.raw`(?<g>${G}) (?:\S+ ){0,8}?(?<p>(?:leaving|leave|leaves|going home|go home|ends? up|ending up|carried out) in (?:an ambulance|a body ?bag|a box|a coffin|pieces))\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${G}) (?:\S+ ){0,6}?(?<p>(?:getting|get|gets|got|will get|gonna get|are getting|is getting) (?:(?:his|her|their|its|your) (?:teeth|head|heads|skull|skulls|face|faces) (?:kicked|smashed|caved|bashed|knocked|punched) in|buried|a visit|a beating|a kicking|jumped|curb-stomped|shot|stabbed|lynched|strung up))\b`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${G}) (?:\S+ ){0,3}?(?:deserve|deserves|need|needs|could use|are asking for|is asking for) (?:a |a good )?(?<p>slap|slapping|beating|kicking|hiding|bullet|smack|punch|bullets)\b`,
    'd',
  ),
  new RegExp(String.raw`\b(?:string|hang) (?:up )?(?:\S+ ){0,2}?(?<g>${G})(?: up)? (?:from|on)\b`, 'd'),
  new RegExp(
    String.raw`\bwe know where (?:(?<g>${GS}) (?:live|lives|sleep|sleeps|pray|prays|work|works)|(?:the|your|their) (?:mosque|synagogue|church|temple|gurdwara|community cent(?:re|er)) is)\b`,
    'd',
  ),
  new RegExp(
    String.raw`\b(?:i'm|i am|we're|we are|i'll|we'll|gonna|going to|i will|we will) (?:\S+ ){0,2}?(?<p>crack\S* (?:skulls|heads)|bash\S* (?:heads|skulls|faces)|break\S* (?:legs|bones|necks)|burn\S* (?:their|his|her|your) (?:house|houses|home|homes|shop|shops) down)\b`,
    'd',
  ),
];

// Lexicon words are placeholders in the canonical stream (`<emo>` for "hatred", `<threat>` for "attacks").
const HOSTILE_NOUN = String.raw`(?:<emo>|<threat>|<insult>|abuse|hatred|hate|violence|discrimination|racism|attacks?|harassment|prejudice|bigotry|crimes?|threats?|slurs?|bias|persecution|insults?|contempt|hostility|mistreatment|treatment|bullying|killing|killings|murders?|vandalism|exclusion)`;
const VICTIM: readonly RegExp[] = [
  new RegExp(
    String.raw`${HOSTILE_NOUN} (?:\S+ )?(?:against|towards|toward|of|on|at|aimed at|directed at|targeting|facing) (?<g>${G})`,
    'd',
  ),
  new RegExp(
    String.raw`(?<g>${G}) (?:\S+ ){0,2}(?:receive|face|suffer|endure|experience|encounter|deal with|put up with|are subjected to) (?:\S+ ){0,2}${HOSTILE_NOUN}`,
    'd',
  ),
  new RegExp(
    String.raw`${HOSTILE_NOUN} (?:that )?(?<g>${G}) (?:\S+ )?(?:receive|face|suffer|endure|experience|get|encounter|keep receiving|put up with)`,
    'd',
  ),
  new RegExp(String.raw`(?<g>${G}) (?:\S+ ){0,4}(?:victims?|targets?) (?:of|for)\b`, 'd'),
  new RegExp(
    String.raw`how (?<g>${G}) (?:are|were|get|got|have been) (?:being )?(?:treated|spoken to|talked about|portrayed|targeted|abused|harassed|bullied|excluded|ignored|attacked)`,
    'd',
  ),
  new RegExp(
    String.raw`(?:<threat>|mocking|mocked|ridiculing|ridiculed|demonising|demonizing|demonised|demonized|vilifying|vilified|scapegoating|scapegoated|blaming|blamed|attacked|attacking|harassed|harassing|abused|abusing|targeted|targeting|threatened|threatening|insulted|insulting|bullied|bullying|beat|beaten|beating|assaulted|murdered|killed) (?<g>${G})`,
    'd',
  ),
];

/** Words before a group that make it an object, not the subject of what follows ("who attacked the X"). */
const OBJECT_BEFORE =
  /^(?:\S+ed|<\w+>|who|whom|at|to|with|by|against|for|of|on|towards|toward|about|from|into|than|like|help|helping|protect|protecting|support|supporting)$/;

interface SentenceText {
  text: string;
  /** Token index of each character offset's token start, by offset. */
  starts: number[];
  first: number;
}

function sentenceText(canonical: readonly string[], from: number, to: number): SentenceText {
  const starts: number[] = [];
  let text = '';
  for (let i = from; i < to; i++) {
    if (text) text += ' ';
    starts.push(text.length);
    text += canonical[i];
  }
  return { text, starts, first: from };
}

/** Token index of a character offset in the sentence text (binary search over token starts). */
function tokenAt(st: SentenceText, offset: number): number {
  let [lo, hi] = [0, st.starts.length - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (st.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return st.first + lo;
}

type Check = (m: RegExpExecArray, first: number, last: number) => boolean;

/** First match of any pattern in the sentence that passes `ok`; each pattern is tried once. */
function matchAny(st: SentenceText, patterns: readonly RegExp[], ok: Check): boolean {
  for (const re of patterns) {
    const m = re.exec(st.text);
    if (m && ok(m, tokenAt(st, m.index), tokenAt(st, m.index + Math.max(0, m[0].length - 1)))) return true;
  }
  return false;
}

/** The group is the subject: nothing before it makes it an object ("who attacked the X", "help X"). */
function groupIsSubject(m: RegExpExecArray, st: SentenceText): boolean {
  const g = m.indices?.groups?.g;
  if (!g || g[0] !== m.index) return true;
  const before = tokenAt(st, g[0]) - 1;
  return before < st.first || !OBJECT_BEFORE.test(st.text.slice(st.starts[before - st.first]!, g[0] - 1));
}

/** Nothing in the match is someone else's reported or rejected words. */
function ownWords(status: readonly FrameStatus[], first: number, last: number): boolean {
  for (let i = first; i <= last; i++) if (status[i]! >= 2) return false;
  return true;
}

/** The predicate (`p`) is not under negation ("should not be deported", "I hope X never suffer"). */
function predicateAffirmed(s: TokenStream, m: RegExpExecArray, st: SentenceText): boolean {
  const p = m.indices?.groups?.p;
  return !p || !negatedAt(s, tokenAt(st, p[0]));
}

const NONE: ImplicitHate = {
  exclusion: 0,
  loadedQuestion: 0,
  harmWish: 0,
  reported: 0,
  victim: 0,
  victimSentences: new Set(),
};

/** Implicit-hate constructions and victim frames, per sentence; only texts naming a group are scanned. */
export function implicitHate(
  s: TokenStream,
  canonical: readonly string[],
  status: readonly FrameStatus[],
): ImplicitHate {
  if (!canonical.includes('<id>')) return NONE;
  const out: ImplicitTally = {
    exclusion: 0,
    loadedQuestion: 0,
    harmWish: 0,
    reported: 0,
    victim: 0,
    victimSentences: new Set<number>(),
  };
  for (let k = 0; k < s.sentenceStart.length; k++) scanSentence({ s, canonical, status }, k, out);
  return out;
}

interface ImplicitInput {
  s: TokenStream;
  canonical: readonly string[];
  status: readonly FrameStatus[];
}

/** Marks in `out` the implicit-hate constructions and victim frames of sentence `k`. */
/** The result under construction: its victim sentences still grow. */
type ImplicitTally = ImplicitHate & { victimSentences: Set<number> };

function scanSentence({ s, canonical, status }: ImplicitInput, k: number, out: ImplicitTally): void {
  const from = s.sentenceStart[k]!;
  const to = s.sentenceStart[k + 1] ?? s.tokens.length;
  if (to <= from) return;
  const st = sentenceText(canonical, from, Math.min(to, from + SENTENCE_CAP));
  const asserted: Check = (m, first, last) => {
    if (!groupIsSubject(m, st) || !predicateAffirmed(s, m, st)) return false;
    // The same construction in someone else's words is kept apart: news and counter-speech report it.
    if (ownWords(status, first, last)) return true;
    out.reported = 1;
    return false;
  };
  if (matchAny(st, EXCLUSION, asserted) || matchAny(st, UNWANTED, (_m, first) => status[first]! < 2))
    out.exclusion = 1;
  if (matchAny(st, HARM_WISH, asserted)) out.harmWish = 1;
  if (s.question[k] && matchAny(st, QUESTION, loadedQuestion(s, status, st))) out.loadedQuestion = 1;
  if (matchAny(st, VICTIM, () => true)) [out.victim] = [1, out.victimSentences.add(k)];
}

/** Sentences longer than this are scanned on their first tokens only (bounded regex work). */
const SENTENCE_CAP = 120;

/**
 * A loaded question is the writer's own and presupposes something about the
 * group: "Why are X always ...?" does, "Why are X always paid less?" (what is
 * done to them) and "Why are X so often ...?" do not.
 */
function loadedQuestion(s: TokenStream, status: readonly FrameStatus[], st: SentenceText): Check {
  return (m, first, last) => {
    // "Who would want to ...?" frames nothing: only a verb of saying before the group reports
    // ("Do you think X are so ...?"); after it, it is the question's predicate ("Can X even think?").
    const g = m.indices?.groups?.g;
    const groupAt = g ? tokenAt(st, g[0]) : last;
    if (status[first]! >= 2 || s.tokens.slice(first, groupAt).some((t) => SAY_VERBS.has(t))) return false;
    return presupposesBad(m);
  };
}

/** Whether the word after the group ("always", "so" + word) presupposes something bad about it. */
function presupposesBad(m: RegExpExecArray): boolean {
  const next = m.groups?.n;
  if (next === undefined) return true;
  // After "so" an -ed word is an adjective ("so entitled"); after "always" it is a passive.
  if (m.groups?.m !== 'so' && VICTIM_PARTICIPLE.test(next)) return false;
  // "Why are X so happy at Pride?" presupposes something good.
  if (POSITIVE.has(next)) return false;
  return !NOT_PRESUPPOSING.test(next);
}
const NOT_PRESUPPOSING =
  /^(?:many|much|often|likely|few|more|less|frequently|rarely|underrepresented|underpaid|poor|vulnerable)$/;
