// Closed-class word lists for the toxicity context rules: negators and what
// ends their scope, verbs and nouns that introduce reported speech or belief,
// who the subject of such a verb is, words that condemn or endorse what was
// said, and plainly positive words (whose negation is a hateful pattern).
// Written for this project from general English grammar, not from corpus rows.

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

export const NEGATORS = words(`not never no nothing nobody neither nor without none less cannot
  don't dont isn't aren't doesn't won't wasn't weren't can't refuse refuses refused refusing`);

/** Tokens that end a negation's scope ("not ... but", a new clause). */
export const SCOPE_BREAK = words('but and because while when yet so though although then');

/** Adverbs that sit between a negator or subject and its verb without changing scope. */
export const ADVERBS = words(`really seriously actually honestly truly even ever just particularly
  at all always genuinely possibly still also obviously clearly simply literally absolutely
  totally completely entirely quite fully`);

/**
 * Verbs of saying, writing, believing: what follows them is reported, not
 * asserted by the writer, unless the writer is the unnegated subject.
 */
export const SAY_VERBS = words(`say says said saying claim claims claimed claiming think thinks
  thought thinking believe believes believed believing write writes wrote written writing post
  posts posted posting tweet tweets tweeted tweeting call calls called calling suggest suggests
  suggested suggesting argue argues argued arguing imply implies implied implying insist insists
  insisted insisting pretend pretends pretended pretending compare compares compared comparing
  liken likening equate equating tell tells told telling mean means meant repeat
  repeats repeated repeating spout spouts spouting spew spews spewing chant chants chanted chanting shout
  shouting shouted yell yelling yelled scream screaming agree agrees agreed assume assumes
  assumed accept accepts accepted label labelled labeling labelling describe describes described
  describing refer referring referred`);

/** Nouns that name a statement ("comments like ...", "the idea that ..."). */
export const SPEECH_NOUNS = words(`statement statements comment comments post posts remark remarks
  words word things phrase phrases slogan slogans joke jokes claim claims idea ideas notion view
  views opinion opinions rhetoric language tweet tweets message messages stereotype stereotypes
  myth lie lies nonsense sentiment belief beliefs assumption assumptions suggestion insistence theory sentiments chants`);

export const FIRST_PERSON = words("i i'm im i've i'd i'll we we're we've me us");
export const SECOND_PERSON = words("you your you're youre yours yourself yourselves ya u");
/** Subjects that report someone else's words ("people who say", "anyone claiming"). */
export const OTHER_SUBJECT = words(`he she they he's she's they're people someone somebody anyone
  anybody everyone everybody those who some many others guy guys man men person nobody folks
  whoever politician politicians commenter commenters friend boss uncle dad mom mum`);

/** Questions opened by a negated auxiliary are rhetorical assertions ("don't you think ..."). */
export const RHETORICAL_OPENERS = words(`don't dont doesn't isn't aren't wouldn't won't shouldn't
  can't couldn't wasn't weren't didn't haven't hasn't`);

/** Words that condemn a statement or its author: the frame around quoted hate in counter-speech. */
export const CONDEMN = words(`bigot bigots bigoted bigotry hateful racist racists racism sexist
  sexism misogynist misogynists misogynistic misogyny homophobe homophobes homophobic homophobia
  transphobe transphobes transphobic transphobia islamophobic islamophobia antisemitic
  antisemitism xenophobic xenophobia ableist ableism prejudice prejudiced discriminatory
  discrimination offensive unacceptable appalling shameful ashamed shame disgraceful misguided
  harmful hurtful hurts hurt dehumanising dehumanizing dehumanise dehumanize degrading demeaning
  toxic nonsense ridiculous absurd wrong false untrue lie lies myth report reported reporting
  ban banned banning block blocked flag flagged mute muted kicked removed delete deleted condemn
  condemns condemned reject rejects rejected denounce denounced oppose opposed disagree unfair
  unjust inexcusable intolerable outrageous awful horrible terrible sad saddens stop bullshit rubbish ignorance hate-speech slur slurs lying liar liars threat threats threatening
  harassment abuse abusive incitement crime debunked disproven refuted discredited baseless
  unfounded outdated tired enough`);

/** Acts of opposing hate ("push back", "call it out", "stand up to"), matched on the token stream. */
export const COUNTER_ACTIONS =
  /\b(push(es|ing|ed)? back|call(s|ing|ed)? (it |them |this |that |him |her |people )?out|speak(s|ing)? (up|out)|spoke (up|out)|stand(s|ing)? (up to|against)|stood (up to|against)|fight(s|ing)? (back|against)|(tear|tears|tore|torn|tearing|take|takes|took|taken|taking) (it |them |this |that )?down)\b/;

/** Words whose negation condemns ("I won't tolerate ...", "it is not okay to ..."); alone they are neutral. */
export const NEGATED_CONDEMN = words(`tolerate tolerated tolerating accept acceptable okay ok fine allowed
  normal funny cool alright place welcome`);

/** Phrases that relativise a claim to someone else's view ("in your eyes", "according to them"). */
export const PERSPECTIVE =
  /^(in|by) (your|their|his|her) (eyes|opinion|view|mind|book|standards)$|^according to (you|them|him|her)$/;
/** "to you" relativises only an evaluation ("worth nothing to you"), not a wish ("death to you"). */
export const EVALUATIVE = words(`worth matter matters mean means important acceptable fine okay ok
  normal funny obvious worthless inferior nothing`);
export const RELATIVE_TO = /^to (you|them|him|her)$/;

/** Words that endorse a statement; negated ("not true"), they reject it instead. */
export const ENDORSE = words('true correct fact facts truth exactly agree agreed right');

export const POSITIVE = words(`love loved lovely admire admired respect respected wonderful great
  gorgeous beautiful brilliant amazing awesome talented smart intelligent kind honoured honored
  welcome welcomed embrace proud valued deserve deserves deserved equal equality rights support supported celebrate
  strong inspiring fantastic excellent good best friends friend happy thank thanks caring brave
  nice cherish protect protected safe matter valuable capable worthy trust trusted trustworthy
  compassion sympathy empathy human humans alive dignity worth decent honest clever civilised
  civilized belong allowed deserving useful value equals citizens normal
  tolerance kindness competent qualified reliable loyal hardworking productive important helpful
  contribute contributes care cares mourn real natural accepted included entitled sane`);

export const THIRD_INDIVIDUAL = words('he she him her his hers');

/** Possessives that attribute an emotion to someone other than the writer ("your contempt"). */
export const OTHER_POSSESSIVE = words('your their his her');
