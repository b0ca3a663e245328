// The catalog of built-in auditors (spec: Auditor catalog entry). An auditor
// in the registry supplies its own entry (`def.catalog`); the static entries
// below stand in for built-ins whose definition is not registered.
import { BUILTIN_AUDITORS } from '../registry.ts';
import type { AuditorCatalogEntry, AuditorDefinition } from '../sdk/types.ts';
import { INJECTION_CATALOG } from './injection.ts';
import { LLM_JUDGE_CATALOG } from './llm-judge.ts';
import { MODEL_CONTEXT_CATALOG } from './model-context.ts';
import { TOXICITY_CATALOG } from './toxicity.ts';

export { INJECTION_CATALOG, LLM_JUDGE_CATALOG, MODEL_CONTEXT_CATALOG, TOXICITY_CATALOG };

/** The built-in auditors every cluster knows: injection, toxicity and the system auditors. */
export const BUILTIN_CATALOG_ENTRIES: readonly AuditorCatalogEntry[] = [
  INJECTION_CATALOG,
  TOXICITY_CATALOG,
  MODEL_CONTEXT_CATALOG,
  LLM_JUDGE_CATALOG,
];

/** The system auditors: always in a chain, cannot be removed (spec: Chain policy). */
export const SYSTEM_AUDITOR_IDS = ['model-context', 'llm-judge'] as const;

/** The built-in default chain's own auditors; the system auditors follow them (CLARIFICATIONS). */
export const DEFAULT_CHAIN_IDS = ['injection', 'toxicity'] as const;

/**
 * Every built-in catalog entry: `def.catalog` of each registered auditor, then
 * the static entry of any built-in not registered. Ordered by default port.
 */
export async function builtinCatalog(
  registry: Record<string, () => Promise<AuditorDefinition>> = BUILTIN_AUDITORS,
): Promise<AuditorCatalogEntry[]> {
  const entries = new Map<string, AuditorCatalogEntry>();
  for (const load of Object.values(registry)) {
    const def = await load();
    entries.set(def.catalog.id, def.catalog);
  }
  for (const entry of BUILTIN_CATALOG_ENTRIES) if (!entries.has(entry.id)) entries.set(entry.id, entry);
  return [...entries.values()].sort((a, b) => a.defaultPort - b.defaultPort);
}
