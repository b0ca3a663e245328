// The audit log of who read or changed what through the facade. Append-only;
// each entry carries the hash of the one before, so a removed or edited entry
// breaks `verify`. Implementations: the embedded file (`file.ts`, one chain per
// replica, the default), PostgreSQL (`pg.ts`, one chain shared by every
// replica) and memory (`chain.ts`, tests only).
export interface AuditInput {
  subject: string;
  method: string;
  /** The policy action (`agent.read`, `agent.shares.write`, …). */
  action: string;
  /** What was read or changed: an agent id, approval id, key id, digest. */
  resource: string;
  namespace?: string;
  /** HTTP status of the answer. */
  status: number;
  outcome: 'allowed' | 'denied' | 'failed';
  requestId: string;
  details?: Record<string, unknown>;
}

export interface AuditEntry extends AuditInput {
  seq: number;
  time: string;
  prevHash: string;
  hash: string;
}

export interface AuditFilter {
  subject?: string;
  action?: string;
  resource?: string;
  namespace?: string;
  /** Only namespaces in this list (a workspace administrator's view). */
  namespaces?: readonly string[];
  outcome?: AuditInput['outcome'];
  sinceMs?: number;
  untilMs?: number;
  /** Entries with seq lower than this (paging newest first). */
  beforeSeq?: number;
  limit: number;
}

export interface ChainVerification {
  ok: boolean;
  entries: number;
  /** seq of the first entry whose hash or link is wrong. */
  brokenAt?: number;
  reason?: string;
}

export interface VerifyOptions {
  full?: boolean;
}

export interface AuditLog {
  append(input: AuditInput): Promise<AuditEntry>;
  /** Newest first. */
  query(filter: AuditFilter): Promise<AuditEntry[]>;
  /**
   * Checks the chain. The embedded log hashes only the entries added since its
   * last check unless `full` (then it walks from seq 1 again).
   */
  verify(options?: VerifyOptions): Promise<ChainVerification>;
  /** Releases connections (PostgreSQL); the embedded log has nothing to release. */
  close?(): Promise<void>;
}
