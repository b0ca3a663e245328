// The embedded evidence store: one JSONL file, one chained entry per line,
// appended with group commit (one write and one fdatasync per batch). The
// file is read and its chain checked on open; an index in memory answers
// lookups. Attester key pins are a second JSONL file beside it
// (`<file>.pins`), one event per line. One process per file (`<file>.lock`).
// Pure JavaScript: no native addon to build for Node 20 and 24.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { Batcher } from '../base/hash-chain/batcher.ts';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { lockFile } from '../base/file-lock.ts';
import { legacyPinEvents, type PinEvent } from './pins.ts';
import type { AttestationResult } from './result.ts';
import {
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

type Item = { evidence: Evidence; result: AttestationResult; agentUid: string };

const agentKey = (agentId: string, agentUid: string): string => `${agentId}\n${agentUid}`;

/** The store's file: its append handle, its path, and the lock's release. */
interface StoreFile {
  handle: FileHandle;
  path: string;
  release: () => Promise<void>;
}

export class FileEvidenceStore implements EvidenceStore {
  readonly kind = 'embedded' as const;
  private readonly entries: StoredEvidence[] = [];
  private readonly byId = new Map<string, StoredEvidence>();
  private readonly byAgent = new Map<string, StoredEvidence[]>();
  /** attester id → its pin events; `<file>.pins` restores them on open. */
  private readonly pins = new Map<string, PinEvent[]>();
  private readonly batcher = new Batcher<Item, StoredEvidence>((items) => this.writeBatch(items));
  /** The chain check of the file as found on open. */
  readonly opened: ChainCheck;

  private readonly handle: FileHandle | undefined;
  private readonly path: string | undefined;
  private readonly release: () => Promise<void>;

  /** `file`: the open, locked file; none keeps the store in memory. */
  private constructor(
    file: StoreFile | undefined,
    private readonly sync: boolean,
    lines: string[],
  ) {
    this.handle = file?.handle;
    this.path = file?.path;
    this.release = file?.release ?? (() => Promise.resolve());
    for (const line of lines) this.index(JSON.parse(line) as StoredEvidence);
    this.opened = checkChain(this.entries);
    for (const event of this.loadPins()) this.indexPin(event);
  }

  static async open(options: FileStoreOptions = {}): Promise<FileEvidenceStore> {
    const { path, sync = true } = options;
    if (!path) return new FileEvidenceStore(undefined, sync, []);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const release = await lockFile(path, 'PLATFORM_EVIDENCE_FILE');
    try {
      const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
      const handle = await open(path, 'a', 0o600);
      return new FileEvidenceStore({ handle, path, release }, sync, lines);
    } catch (err) {
      await release();
      throw err;
    }
  }

  private get pinsPath(): string | undefined {
    return this.path && `${this.path}.pins`;
  }

  /**
   * The pin events of `<file>.pins`; without that file (a store written
   * before pins had owners), the keys its Evidence names, owner unknown,
   * written to a new pins file.
   */
  private loadPins(): PinEvent[] {
    const file = this.pinsPath;
    if (file && existsSync(file)) {
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as PinEvent);
    }
    const legacy = legacyPinEvents(this.entries, new Date().toISOString());
    if (file) writeFileSync(file, legacy.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
    return legacy;
  }

  private indexPin(event: PinEvent): void {
    const list = this.pins.get(event.attester_id) ?? [];
    list.push(event);
    this.pins.set(event.attester_id, list);
  }

  private index(e: StoredEvidence): void {
    this.entries.push(e);
    this.byId.set(e.evidence_id, e);
    // Entries of no known agent (stored before intake bound Evidence to a uid) are listed for nobody.
    if (e.agent_uid === undefined) return;
    const key = agentKey(e.agent_id, e.agent_uid);
    const list = this.byAgent.get(key) ?? [];
    list.push(e);
    this.byAgent.set(key, list);
  }

  attesterPins(attesterId: string): Promise<PinEvent[]> {
    return Promise.resolve([...(this.pins.get(attesterId) ?? [])]);
  }

  /** One process owns the file, so memory is the shared view; the check and the append are one step. */
  async appendPinEvent(event: PinEvent, expectedVersion: number): Promise<boolean> {
    if ((this.pins.get(event.attester_id)?.length ?? 0) !== expectedVersion) return false;
    this.indexPin(event);
    const file = this.pinsPath;
    if (file) {
      const handle = await open(file, 'a', 0o600);
      try {
        await handle.write(`${JSON.stringify(event)}\n`);
        if (this.sync) await handle.datasync();
      } finally {
        await handle.close();
      }
    }
    return true;
  }

  private async writeBatch(items: Item[]): Promise<(StoredEvidence | Error)[]> {
    const out: (StoredEvidence | Error)[] = [];
    const fresh: StoredEvidence[] = [];
    const ids = new Set<string>();
    let prev = this.entries[this.entries.length - 1];
    for (const { evidence, result, agentUid } of items) {
      if (this.byId.has(evidence.evidence_id) || ids.has(evidence.evidence_id)) {
        out.push(new DuplicateEvidenceError(evidence.evidence_id));
        continue;
      }
      const entry = link(prev, evidence, result, agentUid);
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

  append(evidence: Evidence, result: AttestationResult, agentUid: string): Promise<StoredEvidence> {
    return this.batcher.push({ evidence, result, agentUid });
  }

  get(evidenceId: string): Promise<StoredEvidence | undefined> {
    return Promise.resolve(this.byId.get(evidenceId));
  }

  listByAgent(
    agentId: string,
    agentUid: string,
    options: { limit?: number; beforeSeq?: number } = {},
  ): Promise<StoredEvidence[]> {
    const all = this.byAgent.get(agentKey(agentId, agentUid)) ?? [];
    const before = options.beforeSeq ?? Number.POSITIVE_INFINITY;
    const picked = all
      .filter((e) => e.seq < before)
      .slice(-(options.limit ?? 50))
      .reverse();
    return Promise.resolve(picked);
  }

  countByAgent(agentId: string, agentUid: string): Promise<number> {
    return Promise.resolve(this.byAgent.get(agentKey(agentId, agentUid))?.length ?? 0);
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
    await this.release();
  }
}
