// The built-in auditors by id, loaded lazily so one auditor's models do not
// load in another's process. Each loader returns a fresh definition.
import type { AuditorDefinition } from './sdk/types.ts';

export const BUILTIN_AUDITORS: Record<string, () => Promise<AuditorDefinition>> = {
  'model-context': async () => (await import('./model-context/index.ts')).createModelContext(),
  'llm-judge': async () => (await import('./llm-judge/index.ts')).createLlmJudge(),
  injection: async () => ({ ...(await import('./injection/index.ts')).injectionAuditor }),
  toxicity: async () => ({ ...(await import('./toxicity/index.ts')).toxicityAuditor }),
};
