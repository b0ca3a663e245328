// The built-in auditors' definitions by id, loaded lazily (from the built-in
// table). Each loader returns a fresh definition.
import { BUILTIN_AUDITOR_TABLE } from './builtin.ts';
import type { AuditorDefinition } from './sdk/types.ts';

export const BUILTIN_AUDITORS: Record<string, () => Promise<AuditorDefinition>> = Object.fromEntries(
  BUILTIN_AUDITOR_TABLE.map((a) => [a.id, a.load]),
);
