// The embedded data-access log: one JSONL file, one chained entry per line,
// appended with group commit (one write and one fdatasync per batch of
// batches). The file is read and its chain checked on open; an index by agent
// in memory answers reads. One process per file (`<file>.lock`).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { lockFile } from '../base/file-lock.ts';
import { Batcher } from '../base/hash-chain/batcher.ts';
import type { ChainCheck } from '../base/hash-chain/chain.ts';
import type { AccessWire } from './record.ts';
import {
  checkAccessChain,
  DEFAULT_PAGE,
  linkBatch,
  type AccessPage,
  type AccessStore,
  type StoredAccess,
} from './store.ts';

type Batch = { agentId: string; agentUid: string; records: readonly AccessWire[] };

const agentKey = (agentId: string, agentUid: string): string => `${agentId}\n${agentUid}`;

const readEntries = (path: string): StoredAccess[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StoredAccess);

export class FileAccessStore implements AccessStore {
  readonly kind = 'embedded' as const;
  private last: StoredAccess | undefined;
  private readonly byAgent = new Map<string, StoredAccess[]>();
  private readonly batcher = new Batcher<Batch, StoredAccess[]>((batches) => this.writeBatches(batches));
  /** The chain check of the file as found on open. */
  readonly opened: ChainCheck;

  private constructor(
    private readonly file: { handle: FileHandle; path: string; release: () => Promise<void> } | undefined,
    private readonly sync: boolean,
    entries: StoredAccess[],
  ) {
    for (const e of entries) this.index(e);
    this.opened = checkAccessChain(entries);
  }

  /** A log kept in memory only (tests, `:memory:`). */
  static inMemory(): FileAccessStore {
    return new FileAccessStore(undefined, false, []);
  }

  /** `path`: the JSONL file; in memory only when absent. */
  static async open(options: { path?: string; sync?: boolean } = {}): Promise<FileAccessStore> {
    const { path, sync = true } = options;
    if (!path) return FileAccessStore.inMemory();
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const release = await lockFile(path, 'PLATFORM_EVIDENCE_FILE');
    try {
      const entries = existsSync(path) ? readEntries(path) : [];
      const handle = await open(path, 'a', 0o600);
      return new FileAccessStore({ handle, path, release }, sync, entries);
    } catch (err) {
      await release();
      throw err;
    }
  }

  private index(e: StoredAccess): void {
    this.last = e;
    const key = agentKey(e.agent_id, e.agent_uid);
    const list = this.byAgent.get(key) ?? [];
    list.push(e);
    this.byAgent.set(key, list);
  }

  private async writeBatches(batches: Batch[]): Promise<StoredAccess[][]> {
    let head = this.last;
    const linked = batches.map(({ agentId, agentUid, records }) => {
      const entries = linkBatch(head, agentId, agentUid, records);
      head = entries.at(-1) ?? head;
      return entries;
    });
    const fresh = linked.flat();
    if (this.file && fresh.length > 0) {
      await this.file.handle.write(fresh.map((e) => `${JSON.stringify(e)}\n`).join(''));
      if (this.sync) await this.file.handle.datasync();
    }
    for (const e of fresh) this.index(e);
    return linked;
  }

  append(agentId: string, agentUid: string, records: readonly AccessWire[]): Promise<StoredAccess[]> {
    return this.batcher.push({ agentId, agentUid, records });
  }

  listByAgent(agentId: string, agentUid: string, page: AccessPage = {}): Promise<StoredAccess[]> {
    const all = this.byAgent.get(agentKey(agentId, agentUid)) ?? [];
    const before = page.beforeSeq ?? Number.POSITIVE_INFINITY;
    const limit = page.limit ?? DEFAULT_PAGE;
    // Newest first: walk back from the end, so a page costs its own size.
    const out: StoredAccess[] = [];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      if (all[i]!.seq < before) out.push(all[i]!);
    }
    return Promise.resolve(out);
  }

  countByAgent(agentId: string, agentUid: string): Promise<number> {
    return Promise.resolve(this.byAgent.get(agentKey(agentId, agentUid))?.length ?? 0);
  }

  /** Checks the file as it is on disk now (the memory index when there is no file). */
  verifyChain(): Promise<ChainCheck> {
    if (!this.file)
      return Promise.resolve(
        checkAccessChain([...this.byAgent.values()].flat().sort((a, b) => a.seq - b.seq)),
      );
    try {
      return Promise.resolve(checkAccessChain(readEntries(this.file.path)));
    } catch (err) {
      return Promise.resolve({ ok: false, seq: 0, reason: `unreadable entry: ${(err as Error).message}` });
    }
  }

  async close(): Promise<void> {
    await this.file?.handle.close();
    await this.file?.release();
  }
}
