// Chooses the evidence store: PostgreSQL when DATABASE_URL is set, else the
// embedded JSONL file at PLATFORM_EVIDENCE_FILE, by default
// `$XDG_STATE_HOME/agent-platform/evidence.jsonl` (`~/.local/state/…`), so
// Evidence outlives a restart as the audit log does. `:memory:` keeps it in
// memory only (tests, benches).
import { stateFilePath } from '../base/state-dir.ts';
import { FileEvidenceStore } from './store-file.ts';
import type { EvidenceStore } from './store.ts';

export const IN_MEMORY = ':memory:';

export const defaultEvidencePath = (env: NodeJS.ProcessEnv, home?: string): string =>
  stateFilePath(env, 'evidence.jsonl', home);

/** `path`: the file (PLATFORM_EVIDENCE_FILE); the default location when empty. */
export async function openEvidenceStore(env: NodeJS.ProcessEnv, path = ''): Promise<EvidenceStore> {
  if (env.DATABASE_URL) {
    const { PgEvidenceStore } = await import('./store-pg.ts');
    return PgEvidenceStore.open(env.DATABASE_URL);
  }
  if (path === IN_MEMORY) return FileEvidenceStore.open();
  return FileEvidenceStore.open({ path: path || defaultEvidencePath(env) });
}
