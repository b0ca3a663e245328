// The toxicity auditor's vocabulary (claims and settings with the spec's
// defaults) and its catalog entry.
import { vocabularyClaims } from '../catalog/build.ts';
import { standardEnvVariables } from '../catalog/standard-env.ts';
import type { AuditorCatalogEntry, SettingDeclaration, VocabularyEntry } from '../sdk/types.ts';
import { CLAIM_VALUES, vocabularyEntry as entry } from '../sdk/vocabulary.ts';

const { score, bool, list, text } = CLAIM_VALUES;

export const DEFAULT_TOXICITY_MODEL = 'platform-hatecheck-lr-v1';
export const DEFAULT_REPLACEMENT_MESSAGE = 'Content filtered for safety';

export const TOXICITY_SETTINGS = {
  threshold: { key: 'threshold', type: 'number', default: 0.7 },
  severe_threshold: { key: 'severe_threshold', type: 'number', default: 0.5 },
  threat_threshold: { key: 'threat_threshold', type: 'number', default: 0.6 },
  insult_threshold: { key: 'insult_threshold', type: 'number', default: 0.7 },
  identity_attack_threshold: { key: 'identity_attack_threshold', type: 'number', default: 0.5 },
  block_on_detection: { key: 'block_on_detection', type: 'boolean', default: true },
  replacement_message: { key: 'replacement_message', type: 'string', default: DEFAULT_REPLACEMENT_MESSAGE },
  multilingual: { key: 'multilingual', type: 'boolean', default: true },
  model: { key: 'model', type: 'string', default: DEFAULT_TOXICITY_MODEL },
} satisfies Record<string, SettingDeclaration>;

const S = TOXICITY_SETTINGS;
const ALL = Object.values(S);

export const TOXICITY_VOCABULARY: VocabularyEntry[] = [
  entry('toxicity_detected', bool, 'Some category score is at or above its threshold.', ALL),
  entry('toxicity_score', score, 'Overall toxicity score.', [S.threshold]),
  entry('toxicity.severe_toxicity', score, 'Severe toxicity: unmitigated slurs, threats against a group.', [
    S.severe_threshold,
  ]),
  entry('toxicity.threat', score, 'Threat of violence against a person or group.', [S.threat_threshold]),
  entry('toxicity.insult', score, 'Insult or dehumanising language aimed at a target.', [S.insult_threshold]),
  entry('toxicity.identity_attack', score, 'Attack on a protected group (calibrated model probability).', [
    S.identity_attack_threshold,
  ]),
  entry(
    'toxicity.hate_detected',
    bool,
    'Hate reading: a protected group is attacked (identity attack or severe toxicity at or above its threshold); profanity and in-group slang alone are not hate.',
    [S.identity_attack_threshold, S.severe_threshold],
  ),
  entry('toxicity.hate', score, 'Hate score: the larger of identity attack and severe toxicity.', [
    S.identity_attack_threshold,
    S.severe_threshold,
  ]),
  entry(
    'toxicity.offensive',
    score,
    'Offensive-language reading (hateful or offensive, as real tweets are labelled): the offensive model probability after context discounts.',
    [S.threshold],
  ),
  entry('toxicity.categories', list, 'Categories at or above their thresholds.'),
  entry('toxicity.terms', list, 'Lexicon terms found (after undoing spelling tricks).'),
  entry(
    'toxicity.context',
    list,
    'Context that discounted terms: negation, counter_speech, quotation, reclaimed, homonym.',
  ),
  entry('toxicity.language', text, 'Detected language (ISO 639-1, or und).', [S.multilingual]),
];

const ENV_DOC: Record<string, string> = {
  threshold: 'Overall toxicity threshold.',
  severe_threshold: 'Severe toxicity threshold.',
  threat_threshold: 'Threat threshold.',
  insult_threshold: 'Insult threshold.',
  identity_attack_threshold: 'Identity-attack threshold.',
  block_on_detection: 'Passed to the gateway in claim provenance; the auditor itself never blocks.',
  replacement_message: 'Message the gateway may substitute for filtered content (claim metadata).',
  multilingual: 'Also use the French, Spanish and German lexicons.',
  model: 'Name of the model / method in use (reported in claim metadata).',
};

export const TOXICITY_CATALOG: AuditorCatalogEntry = {
  id: 'toxicity',
  name: 'Toxicity',
  description:
    'Per-category toxicity (toxicity, severe toxicity, threat, insult, identity attack) from graded lexicons, context rules and a model trained on HateCheck families.',
  category: 'security',
  phase: 'output_policy',
  icon: 'message-alert',
  color: '#c2255c',
  defaultPort: 8093,
  envVariables: [
    ...standardEnvVariables(),
    ...ALL.map((s) => ({
      name: `TOXICITY_${s.key.toUpperCase()}`,
      description: ENV_DOC[s.key]!,
      default: String(s.default),
    })),
  ],
  policyOptions: [
    {
      key: 'block_on_toxicity',
      label: 'Block toxic content',
      description: 'Deny or replace content whose toxicity_detected claim is true.',
    },
    {
      key: 'block_on_threat',
      label: 'Block threats',
      description: 'Deny content whose toxicity.threat is above its threshold.',
    },
  ],
  defaultPolicy: {
    rules: [{ claim: 'toxicity_detected', equals: true, effect: 'forbid' }],
    enforcementMode: 'enforce',
  },
  claims: vocabularyClaims(TOXICITY_VOCABULARY),
};
