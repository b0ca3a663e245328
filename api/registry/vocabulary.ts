// A registered auditor's vocabulary declaration (spec: Vocabulary), as its
// `vocabulary_url` serves it, checked and turned into the claims an
// AuditorRegistration stores. Pure: the fetch is in vocabulary-fetch.ts.
import { Ajv } from 'ajv';
import { CLAIM_TYPES, REQUEST_PHASES, type RequestPhase } from '../../auditors/sdk/types.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { SETTING_TYPES } from '../../crds/schema/enums.ts';
import { toIssues } from '../../crds/validators.ts';
import { describeIssues } from '../http/validate.ts';

export const SUPPORTED_SCHEMA_MAJOR = 2;

type Claims = NonNullable<AuditorRegistration['spec']['claims']>;

/** What a valid declaration contributes to the registration. */
export interface SyncedVocabulary {
  claims: Claims;
  phases?: RequestPhase[];
  version?: string;
}

const NAME = '^[a-z][a-z0-9_]*([.][a-z][a-z0-9_]*)*$';

/** The declaration's shape, within the AuditorRegistration's own limits (so a valid one always stores). */
export const VOCABULARY_SCHEMA = {
  type: 'object',
  required: ['vocabulary'],
  properties: {
    auditor_id: { type: 'string' },
    version: { type: 'string', maxLength: 63 },
    schema_version: { type: ['string', 'number'] },
    phases: {
      type: 'array',
      maxItems: 4,
      uniqueItems: true,
      items: { enum: [...REQUEST_PHASES] },
    },
    vocabulary: {
      type: 'array',
      minItems: 1,
      maxItems: 128,
      items: {
        type: 'object',
        required: ['name', 'type'],
        properties: {
          name: { type: 'string', maxLength: 253, pattern: NAME },
          type: { enum: [...CLAIM_TYPES] },
          description: { type: 'string', maxLength: 4096 },
          value_schema: { type: 'object' },
          settings: {
            type: 'array',
            maxItems: 32,
            items: {
              type: 'object',
              required: ['key', 'type'],
              properties: {
                key: { type: 'string', maxLength: 63, pattern: '^[a-z][a-z0-9_]*$' },
                type: { enum: [...SETTING_TYPES] },
              },
            },
          },
        },
      },
    },
  },
};

const validate = new Ajv({ allErrors: true, strict: false }).compile(VOCABULARY_SCHEMA);

interface Declaration {
  auditor_id?: string;
  version?: string;
  schema_version?: string | number;
  phases?: RequestPhase[];
  vocabulary: {
    name: string;
    type: Claims[number]['type'];
    description?: string;
    settings?: {
      key: string;
      type: NonNullable<Claims[number]['settings']>[number]['type'];
      default?: unknown;
    }[];
  }[];
}

/** '' when `decl` (a parsed declaration) is usable for `auditorId`, else why not. */
function declarationProblem(auditorId: string, decl: unknown): string {
  if (!validate(decl)) return describeIssues('vocabulary', toIssues(validate.errors ?? []));
  const d = decl as unknown as Declaration;
  return identityProblem(auditorId, d) || duplicatesProblem(d);
}

/** Another schema major version, or another auditor's vocabulary. */
function identityProblem(auditorId: string, d: Declaration): string {
  if (d.schema_version !== undefined) {
    const major = Number(String(d.schema_version).split('.')[0]);
    if (major !== SUPPORTED_SCHEMA_MAJOR)
      return `schema_version ${String(d.schema_version).slice(0, 20)} is not ${SUPPORTED_SCHEMA_MAJOR}.x`;
  }
  if (d.auditor_id !== undefined && d.auditor_id !== auditorId)
    return `the vocabulary is auditor ${JSON.stringify(d.auditor_id.slice(0, 63))}'s, not ${auditorId}'s`;
  return '';
}

/** A claim, or a claim's setting, declared twice (the registration keys both lists by name). */
function duplicatesProblem(d: Declaration): string {
  const twice = duplicateOf(d.vocabulary.map((e) => e.name));
  if (twice) return `claim ${twice} is declared twice`;
  for (const e of d.vocabulary) {
    const key = duplicateOf((e.settings ?? []).map((s) => s.key));
    if (key) return `claim ${e.name} declares setting ${key} twice`;
  }
  return '';
}

const duplicateOf = (list: readonly string[]): string | undefined =>
  list.find((item, i) => list.indexOf(item) !== i);

/** The registration's claims from a declaration: a setting's default is kept only when one is given. */
function claimsOf(d: Declaration): Claims {
  return d.vocabulary.map((e) => ({
    name: e.name,
    type: e.type,
    ...(e.description ? { description: e.description } : {}),
    ...(e.settings?.length
      ? {
          settings: e.settings.map((s) => ({
            key: s.key,
            type: s.type,
            ...(s.default !== undefined ? { default: s.default } : {}),
          })),
        }
      : {}),
  }));
}

/** The declaration's contribution, or the reason it is refused. */
export function syncVocabulary(
  auditorId: string,
  decl: unknown,
): { ok: true; value: SyncedVocabulary } | { ok: false; problem: string } {
  const problem = declarationProblem(auditorId, decl);
  if (problem) return { ok: false, problem };
  const d = decl as Declaration;
  return {
    ok: true,
    value: {
      claims: claimsOf(d),
      ...(d.phases ? { phases: d.phases } : {}),
      ...(d.version ? { version: d.version } : {}),
    },
  };
}
