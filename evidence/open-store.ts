// Chooses the evidence store: PostgreSQL when DATABASE_URL is set, else the
// embedded JSONL file at PLATFORM_EVIDENCE_FILE (in memory when unset).
import { FileEvidenceStore } from './store-file.ts';
import type { EvidenceStore } from './store.ts';

export async function openEvidenceStore(env: NodeJS.ProcessEnv = process.env): Promise<EvidenceStore> {
  if (env.DATABASE_URL) {
    const { PgEvidenceStore } = await import('./store-pg.ts');
    return PgEvidenceStore.open(env.DATABASE_URL);
  }
  return FileEvidenceStore.open(env.PLATFORM_EVIDENCE_FILE ? { path: env.PLATFORM_EVIDENCE_FILE } : {});
}
