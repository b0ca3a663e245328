// Chooses the audit log: PostgreSQL when DATABASE_URL is set (one chain shared
// by every replica), else the embedded log (in memory, or the JSON-lines file
// at PLATFORM_API_AUDIT_LOG), the same choice as the evidence store makes.
import { HashChainAuditLog } from './chain.ts';
import type { AuditLog } from './log.ts';

export async function openAuditLog(env: NodeJS.ProcessEnv, embeddedPath?: string): Promise<AuditLog> {
  if (env.DATABASE_URL) {
    const { PgAuditLog } = await import('./pg.ts');
    return PgAuditLog.open(env.DATABASE_URL);
  }
  return new HashChainAuditLog(embeddedPath);
}
