// The embedded evidence store: one JSONL file, one chained entry per line,
// appended with group commit (one write and one fdatasync per batch). The
// file is read and its chain checked on open; an index in memory answers
// lookups. Pure JavaScript: no native addon to build for Node 20 and 24.
import { open, type FileHandle } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import type { AttestationResult } from './result.ts';
import {
  Batcher,
  checkChain,
  DuplicateEvidenceError,
  link,
  type ChainCheck,
  type EvidenceStore,
  type StoredEvidence,
} from './store.ts';
import type { Evidence } from './types.ts';

export interface FileStoreOptions {
  /** The JSONL file; in memory only when absent. */
  path?: string;
  /** fdatasync after each batch (default true). */
  sync?: boolean;
}

export class FileEvidenceStore implements EvidenceStore {
  readonly kind = 'embedded' as const;
  private readonly entries: StoredEvidence[] = [];
  private readonly byId = new Map<string, StoredEvidence>();
  private readonly byAgent = new Map<string, StoredEvidence[]>();
  /** attester/key id → public key; rebuilt from the stored Evidence on open. */
  private readonly pins = new Map<string, string>();
  private readonly batcher = new Batcher<{ evidence: Evidence; result: AttestationResult }, StoredEvidence>(
    (items) => this.writeBatch(items),
  );
  /** The chain check of the file as found on open. */
  readonly opened: ChainCheck;

  private constructor(
    private readonly handle: FileHandle | undefined,
    private readonly path: string | undefined,
    private readonly sync: boolean,
    lines: string[],
  ) {
    for (const line of lines) this.index(JSON.parse(line) as StoredEvidence);
    this.opened = checkChain(this.entries);
  }

  static async open(options: FileStoreOptions = {}): Promise<FileEvidenceStore> {
    const lines =
      options.path && existsSync(options.path)
        ? readFileSync(options.path, 'utf8').split('\n').filter(Boolean)
        : [];
    const handle = options.path ? await open(options.path, 'a', 0o600) : undefined;
    return new FileEvidenceStore(handle, options.path, options.sync ?? true, lines);
  }

  private index(e: StoredEvidence): void {
    this.entries.push(e);
    this.byId.set(e.evidence_id, e);
    const list = this.byAgent.get(e.agent_id) ?? [];
    list.push(e);
    this.byAgent.set(e.agent_id, list);
    const pin = `${e.evidence.attester_id}/${e.evidence.attestation.key_id}`;
    if (!this.pins.has(pin)) this.pins.set(pin, e.evidence.attestation.public_key);
  }

  /** One process owns the file, so memory is the shared view; stored Evidence restores it on open. */
  pinAttesterKey(attesterId: string, keyId: string, publicKey: string): Promise<string> {
    const pin = `${attesterId}/${keyId}`;
    if (!this.pins.has(pin)) this.pins.set(pin, publicKey);
    return Promise.resolve(this.pins.get(pin)!);
  }

  private async writeBatch(
    items: { evidence: Evidence; result: AttestationResult }[],
  ): Promise<(StoredEvidence | Error)[]> {
    const out: (StoredEvidence | Error)[] = [];
    const fresh: StoredEvidence[] = [];
    const ids = new Set<string>();
    let prev = this.entries[this.entries.length - 1];
    for (const { evidence, result } of items) {
      if (this.byId.has(evidence.evidence_id) || ids.has(evidence.evidence_id)) {
        out.push(new DuplicateEvidenceError(evidence.evidence_id));
        continue;
      }
      const entry = link(prev, evidence, result);
      ids.add(entry.evidence_id);
      fresh.push(entry);
      out.push(entry);
      prev = entry;
    }
    if (this.handle && fresh.length > 0) {
      await this.handle.write(fresh.map((e) => `${JSON.stringify(e)}\n`).join(''));
      if (this.sync) await this.handle.datasync();
    }
    for (const e of fresh) this.index(e);
    return out;
  }

  append(evidence: Evidence, result: AttestationResult): Promise<StoredEvidence> {
    return this.batcher.push({ evidence, result });
  }

  get(evidenceId: string): Promise<StoredEvidence | undefined> {
    return Promise.resolve(this.byId.get(evidenceId));
  }

  listByAgent(
    agentId: string,
    options: { limit?: number; beforeSeq?: number } = {},
  ): Promise<StoredEvidence[]> {
    const all = this.byAgent.get(agentId) ?? [];
    const before = options.beforeSeq ?? Number.POSITIVE_INFINITY;
    const picked = all
      .filter((e) => e.seq < before)
      .slice(-(options.limit ?? 50))
      .reverse();
    return Promise.resolve(picked);
  }

  /** Checks the file as it is on disk now (the memory index when there is no file). */
  verifyChain(): Promise<ChainCheck> {
    if (!this.path) return Promise.resolve(checkChain(this.entries));
    const lines = readFileSync(this.path, 'utf8').split('\n').filter(Boolean);
    try {
      return Promise.resolve(checkChain(lines.map((l) => JSON.parse(l) as StoredEvidence)));
    } catch (err) {
      return Promise.resolve({ ok: false, seq: 0, reason: `unreadable entry: ${(err as Error).message}` });
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}
