// The Cedar schema the Gateway's decisions run against, generated from the
// auditors' vocabularies: one `evaluate` action whose context carries every
// declared claim as an optional attribute (scores and durations as scaled
// integers, lists as sets), each claim's confidence, and the request's phase.
import type { SchemaJson, TypeOfAttribute } from '@cedar-policy/cedar-wasm/nodejs';
import type { ClaimType, RequestPhase, Vocabulary } from '../auditors/sdk/types.ts';

export const CEDAR_NAMESPACE = 'Platform';
export const PRINCIPAL_TYPE = `${CEDAR_NAMESPACE}::Agent`;
export const RESOURCE_TYPE = `${CEDAR_NAMESPACE}::Request`;
export const ACTION_TYPE = `${CEDAR_NAMESPACE}::Action`;
export const ACTION_ID = 'evaluate';

export interface ClaimInfo {
  type: ClaimType;
  auditorId: string;
  phases: RequestPhase[];
}

/** claim name → type, declaring auditor and phases; conflicts are reported, first declaration kept. */
export function indexVocabularies(vocabularies: Vocabulary[]): {
  claims: Map<string, ClaimInfo>;
  problems: string[];
} {
  const claims = new Map<string, ClaimInfo>();
  const problems: string[] = [];
  for (const vocabulary of vocabularies) {
    for (const entry of vocabulary.vocabulary) {
      const seen = claims.get(entry.name);
      if (seen && seen.type !== entry.type) {
        problems.push(
          `claim ${entry.name}: ${vocabulary.auditor_id} declares ${entry.type}, ${seen.auditorId} declares ${seen.type}`,
        );
        continue;
      }
      if (!seen)
        claims.set(entry.name, {
          type: entry.type,
          auditorId: vocabulary.auditor_id,
          phases: vocabulary.phases,
        });
    }
  }
  return { claims, problems };
}

/** The Cedar type of a claim's context attribute; `object` claims are not exposed to policies. */
export function cedarTypeOf(type: ClaimType): TypeOfAttribute<string> | undefined {
  switch (type) {
    case 'score_normalized':
    case 'count':
    case 'duration_ms':
      return { type: 'Long', required: false };
    case 'boolean':
      return { type: 'Boolean', required: false };
    case 'string':
      return { type: 'String', required: false };
    case 'string_list':
      return { type: 'Set', element: { type: 'String' }, required: false };
    case 'object':
      return undefined;
  }
}

export function cedarSchema(claims: Map<string, ClaimInfo>): SchemaJson<string> {
  const attributes: Record<string, TypeOfAttribute<string>> = {
    phase: { type: 'String' },
    agent_id: { type: 'String' },
    workspace_id: { type: 'String' },
  };
  const confidence: Record<string, TypeOfAttribute<string>> = {};
  for (const [name, info] of claims) {
    const t = cedarTypeOf(info.type);
    if (!t || name in attributes) continue;
    attributes[name] = t;
    confidence[name] = { type: 'Long', required: false };
  }
  attributes.confidence = { type: 'Record', attributes: confidence };
  return {
    [CEDAR_NAMESPACE]: {
      entityTypes: { Agent: {}, Request: {} },
      actions: {
        [ACTION_ID]: {
          appliesTo: {
            principalTypes: ['Agent'],
            resourceTypes: ['Request'],
            context: { type: 'Record', attributes },
          },
        },
      },
    },
  };
}
