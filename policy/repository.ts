// Where the Verifier keeps AuditorPolicies for the REST routes. In a cluster
// these are AuditorPolicy resources; the in-memory repository serves tests
// and the embedded mode.
import type { PolicyRecord } from './types.ts';

export interface PolicyRepository {
  list(): Promise<PolicyRecord[]>;
  get(id: string): Promise<PolicyRecord | undefined>;
  put(record: PolicyRecord): Promise<PolicyRecord>;
  delete(id: string): Promise<boolean>;
}

export function memoryPolicies(initial: PolicyRecord[] = []): PolicyRepository {
  const byId = new Map(initial.map((p) => [p.id, structuredClone(p)]));
  return {
    list: () => Promise.resolve([...byId.values()].map((p) => structuredClone(p))),
    get: (id) => Promise.resolve(byId.has(id) ? structuredClone(byId.get(id)!) : undefined),
    put: (record) => {
      byId.set(record.id, structuredClone(record));
      return Promise.resolve(structuredClone(record));
    },
    delete: (id) => Promise.resolve(byId.delete(id)),
  };
}
