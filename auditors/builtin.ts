// The built-in auditors, one row each: everything the catalog, the Verifier,
// the webhook, the controllers and the definition-file checks know about
// them. A row's facts are the auditor's own: its catalog entry (id, name,
// category, phase, port; claims built from the vocabulary) and its vocabulary
// come from `auditors/<id>/vocabulary.ts`, the same objects its definition
// serves; the definition itself loads lazily, so one auditor's models do not
// load in another's process. All run on the platform image as
// `platform run auditor <id>` at their catalog port.
import { INJECTION_CATALOG, INJECTION_VOCABULARY } from './injection/vocabulary.ts';
import { LLM_JUDGE_CATALOG, LLM_JUDGE_CONFIGURATION, LLM_JUDGE_VOCABULARY } from './llm-judge/vocabulary.ts';
import {
  MODEL_CONTEXT_CATALOG,
  MODEL_CONTEXT_CONFIGURATION,
  MODEL_CONTEXT_VOCABULARY,
} from './model-context/vocabulary.ts';
import type { AuditorCatalogEntry, AuditorDefinition, Vocabulary, VocabularyEntry } from './sdk/types.ts';
import { TOXICITY_CATALOG, TOXICITY_VOCABULARY } from './toxicity/vocabulary.ts';

/**
 * `default-chain`: the built-in default chain's own auditors (CLARIFICATIONS);
 * `system`: always in a chain, cannot be removed (spec: Chain policy).
 */
export type BuiltinRole = 'default-chain' | 'system';

export interface BuiltinAuditor {
  id: string;
  role: BuiltinRole;
  catalog: AuditorCatalogEntry;
  vocabulary: VocabularyEntry[];
  configuration: NonNullable<Vocabulary['configuration']>;
  /** A fresh definition (its `catalog` and `vocabulary` are the ones above). */
  load: () => Promise<AuditorDefinition>;
}

const row = (
  role: BuiltinRole,
  catalog: AuditorCatalogEntry,
  served: Pick<BuiltinAuditor, 'vocabulary' | 'configuration'>,
  load: () => Promise<AuditorDefinition>,
): BuiltinAuditor => ({ id: catalog.id, role, catalog, ...served, load });

/** Ordered by port, which is also the order of the default chain (system auditors last). */
export const BUILTIN_AUDITOR_TABLE: readonly BuiltinAuditor[] = [
  row(
    'default-chain',
    INJECTION_CATALOG,
    { vocabulary: INJECTION_VOCABULARY, configuration: {} },
    async () => ({
      ...(await import('./injection/index.ts')).injectionAuditor,
    }),
  ),
  row(
    'default-chain',
    TOXICITY_CATALOG,
    { vocabulary: TOXICITY_VOCABULARY, configuration: {} },
    async () => ({
      ...(await import('./toxicity/index.ts')).toxicityAuditor,
    }),
  ),
  row(
    'system',
    MODEL_CONTEXT_CATALOG,
    { vocabulary: MODEL_CONTEXT_VOCABULARY, configuration: MODEL_CONTEXT_CONFIGURATION },
    async () => (await import('./model-context/index.ts')).createModelContext(),
  ),
  row(
    'system',
    LLM_JUDGE_CATALOG,
    { vocabulary: LLM_JUDGE_VOCABULARY, configuration: LLM_JUDGE_CONFIGURATION },
    async () => (await import('./llm-judge/index.ts')).createLlmJudge(),
  ),
];

const idsWith = (role?: BuiltinRole): readonly string[] =>
  BUILTIN_AUDITOR_TABLE.filter((a) => role === undefined || a.role === role).map((a) => a.id);

/** Auditors known before any registration. */
export const BUILTIN_AUDITOR_IDS = idsWith();
/** The system auditors: always in a chain, cannot be removed. */
export const SYSTEM_AUDITOR_IDS = idsWith('system');
/** The built-in default chain's own auditors; the system auditors follow them. */
export const DEFAULT_CHAIN_IDS = idsWith('default-chain');

export const builtinAuditor = (id: string): BuiltinAuditor | undefined =>
  BUILTIN_AUDITOR_TABLE.find((a) => a.id === id);

export const isBuiltinAuditor = (id: string): boolean => builtinAuditor(id) !== undefined;
