// The catalog of built-in auditors (spec: Auditor catalog entry): each one's
// own entry, as its definition serves it (from the built-in table).
import { BUILTIN_AUDITOR_TABLE } from '../builtin.ts';
import type { AuditorCatalogEntry } from '../sdk/types.ts';

/** Injection, toxicity and the system auditors, ordered by default port. */
export const BUILTIN_CATALOG_ENTRIES: readonly AuditorCatalogEntry[] = BUILTIN_AUDITOR_TABLE.map(
  (a) => a.catalog,
);
