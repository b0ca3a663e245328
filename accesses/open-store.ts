// Chooses the data-access log: PostgreSQL when DATABASE_URL is set, else a
// JSONL file beside the embedded evidence store's (`<evidence file>.accesses`,
// decision 167), in memory when the evidence store is (`:memory:`).
import { defaultEvidencePath, IN_MEMORY } from '../evidence/open-store.ts';
import { FileAccessStore } from './store-file.ts';
import type { AccessStore } from './store.ts';

export const accessLogPath = (evidenceFile: string): string => `${evidenceFile}.accesses`;

/** `evidenceFile`: PLATFORM_EVIDENCE_FILE as configured ('' for its default). */
export async function openAccessStore(env: NodeJS.ProcessEnv, evidenceFile = ''): Promise<AccessStore> {
  if (env.DATABASE_URL) {
    const { PgAccessStore } = await import('./store-pg.ts');
    return PgAccessStore.open(env.DATABASE_URL);
  }
  if (evidenceFile === IN_MEMORY) return FileAccessStore.open();
  return FileAccessStore.open({ path: accessLogPath(evidenceFile || defaultEvidencePath(env)) });
}
