// Chooses the audit log: PostgreSQL when DATABASE_URL is set (one chain shared
// by every replica), else the embedded JSON-lines file at
// PLATFORM_API_AUDIT_LOG, by default `$XDG_STATE_HOME/agent-platform/audit.jsonl`
// (`~/.local/state/…`), so the log outlives a restart. `:memory:` keeps it in
// memory only (tests, benches).
import type { Logger } from '../../base/log.ts';
import { HashChainAuditLog } from './chain.ts';
import { FileAuditLog } from './file.ts';
import { stateFilePath } from '../../base/state-dir.ts';
import type { AuditLog } from './log.ts';

export const IN_MEMORY = ':memory:';

export interface OpenAuditLogOptions {
  /** The file (PLATFORM_API_AUDIT_LOG); the default location when absent. */
  path?: string;
  /** Newest entries the embedded log keeps in memory (PLATFORM_API_AUDIT_WINDOW). */
  window?: number;
  log?: Logger;
}

export const defaultAuditLogPath = (env: NodeJS.ProcessEnv, home?: string): string =>
  stateFilePath(env, 'audit.jsonl', home);

export async function openAuditLog(env: NodeJS.ProcessEnv, o: OpenAuditLogOptions = {}): Promise<AuditLog> {
  if (env.DATABASE_URL) {
    const { PgAuditLog } = await import('./pg.ts');
    return PgAuditLog.open(env.DATABASE_URL);
  }
  if (o.path === IN_MEMORY) return new HashChainAuditLog();
  const path = o.path || defaultAuditLogPath(env);
  const audit = await FileAuditLog.open({ path, ...(o.window ? { window: o.window } : {}) });
  if (o.log) reportOpened(o.log, path, audit.opened);
  return audit;
}

/** Logs what opening the file found: its size, and a torn tail or broken chain if any. */
function reportOpened(log: Logger, path: string, { torn, broken, entries }: FileAuditLog['opened']): void {
  log.info({ path, entries }, 'audit log opened');
  if (torn) log.warn({ path, ...torn }, 'audit log: cut a torn last line (an unfinished write)');
  if (broken) log.error({ path, ...broken }, 'audit log: the hash chain is broken; verify reports it');
}
