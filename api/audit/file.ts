// The default AuditLog: one JSON-lines file, one chained entry per line,
// appended with group commit (one write and one fdatasync per batch) as the
// evidence store does. Memory stays bounded: the newest entries and sparse
// offsets (`window.ts`); older pages are read from the file. `verify` hashes
// only what was added since the last good check (a checkpoint), reading the
// file in blocks and yielding to the event loop between chunks. On open the
// file is walked once: a torn last line (a write cut short; never
// acknowledged) is set aside in `<file>.torn-<ms>` and cut off; a damaged
// chain does not stop the start but is what `verify` reports from then on.
import { mkdir, open, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Batcher } from '../../base/hash-chain/batcher.ts';
import { GENESIS_HASH, type ChainHead } from '../../base/hash-chain/chain.ts';
import { auditChainWalker, matches, nextEntry, normalizeInput } from './chain.ts';
import { parseEntry, readLines, type Line } from './lines.ts';
import { lockFile } from '../../base/file-lock.ts';
import type {
  AuditEntry,
  AuditFilter,
  AuditInput,
  AuditLog,
  ChainVerification,
  VerifyOptions,
} from './log.ts';
import { RecentWindow, SparseMarks } from './window.ts';

export interface FileAuditLogOptions {
  path: string;
  /** Newest entries kept in memory (default 2000). */
  window?: number;
  /** Most file offsets kept in memory (default 4096). */
  maxMarks?: number;
  /** fdatasync after each batch (default true). */
  sync?: boolean;
  now?: () => number;
}

/** What opening found. */
export interface OpenReport {
  entries: number;
  /** Bytes after the last newline, moved to `savedTo` and cut from the log. */
  torn?: { bytes: number; savedTo: string };
  /** The first entry that breaks the chain; `verify` keeps reporting it. */
  broken?: { brokenAt: number; reason: string };
}

interface Checkpoint {
  seq: number;
  hash: string;
  /** Byte offset just after the checkpoint entry's line. */
  offset: number;
}

interface Held {
  entry: AuditEntry;
  start: number;
}

/** Entries hashed between two turns of the event loop. */
const HASHES_PER_TURN = 256;
const GENESIS: Checkpoint = { seq: 0, hash: GENESIS_HASH, offset: 0 };

/** The open file: an append handle, a read handle, and the lock's release. */
interface LogFiles {
  writer: FileHandle;
  reader: FileHandle;
  release: () => Promise<void>;
}

export class FileAuditLog implements AuditLog {
  private readonly window: RecentWindow<Held>;
  private readonly marks: SparseMarks;
  private readonly batcher = new Batcher<AuditInput, AuditEntry>((inputs) => this.writeBatch(inputs));
  /** Bytes of the file that hold acknowledged entries. */
  private size = 0;
  private count = 0;
  private head: ChainHead | undefined;
  private checkpoint = GENESIS;
  private broken: OpenReport['broken'];
  private verifying: Promise<unknown> = Promise.resolve();
  private writing: Promise<unknown> = Promise.resolve();
  /** Entries hashed by `verify` so far (how incremental it is, for tests and benches). */
  hashed = 0;
  opened: OpenReport = { entries: 0 };

  private constructor(
    readonly path: string,
    private readonly files: LogFiles,
    private readonly o: Required<Omit<FileAuditLogOptions, 'path'>>,
  ) {
    this.window = new RecentWindow(o.window);
    this.marks = new SparseMarks(256, o.maxMarks);
  }

  static async open(options: FileAuditLogOptions): Promise<FileAuditLog> {
    const o = { window: 2000, maxMarks: 4096, sync: true, now: Date.now, ...options };
    await mkdir(dirname(o.path), { recursive: true, mode: 0o700 });
    const release = await lockFile(o.path, 'PLATFORM_API_AUDIT_LOG');
    const handles: FileHandle[] = [];
    try {
      handles.push(await open(o.path, 'a', 0o600));
      handles.push(await open(o.path, 'r'));
      const log = new FileAuditLog(o.path, { writer: handles[0]!, reader: handles[1]!, release }, o);
      await log.load();
      return log;
    } catch (err) {
      await Promise.all(handles.map((h) => h.close()));
      await release();
      throw err;
    }
  }

  /** In-memory sizes, for tests that the memory stays bounded. */
  memory(): { window: number; marks: number; stride: number } {
    return { window: this.window.size, marks: this.marks.size, stride: this.marks.stride };
  }

  private hold(entry: AuditEntry, start: number): void {
    this.window.push({ entry, start });
    this.marks.note(entry.seq, start);
    this.head = entry;
  }

  /** Walks the whole file once: index, chain check, torn tail. */
  private async load(): Promise<void> {
    const end = (await this.files.reader.stat()).size;
    let torn: { start: number; bytes: Buffer } | undefined;
    const onTail = (start: number, bytes: Buffer): void => void (torn = { start, bytes });
    await this.walk(
      GENESIS,
      end,
      (entry, line) => {
        this.count++;
        if (entry) this.hold(entry, line.start);
      },
      onTail,
    );
    this.size = torn ? torn.start : end;
    if (torn) {
      const savedTo = `${this.path}.torn-${this.o.now()}`;
      await writeFile(savedTo, torn.bytes, { mode: 0o600 });
      await this.files.writer.truncate(torn.start);
      this.opened.torn = { bytes: torn.bytes.length, savedTo };
    }
    this.opened.entries = this.count;
    if (this.broken) this.opened.broken = this.broken;
  }

  /**
   * Reads entries from `from` to byte `end`, checking the chain while it holds
   * (advancing the checkpoint; the first break is kept) and handing every line
   * to `each`. Yields to the event loop every few hundred hashes.
   */
  private async walk(
    from: Checkpoint,
    end: number,
    each?: (entry: AuditEntry | undefined, line: Line) => void,
    tail?: (start: number, bytes: Buffer) => void,
  ): Promise<void> {
    const walker = auditChainWalker({ seq: from.seq, hash: from.hash });
    let sinceYield = 0;
    for await (const line of readLines(this.files.reader, from.offset, end, { tail })) {
      if (++sinceYield >= HASHES_PER_TURN) {
        sinceYield = 0;
        await yieldToLoop();
      }
      const entry = parseEntry(line.text);
      each?.(entry, line);
      if (this.broken) continue;
      if (!entry) {
        this.broken = { brokenAt: walker.verifiedSeq + 1, reason: 'unreadable entry' };
        continue;
      }
      this.hashed++;
      const reason = walker.next(entry);
      if (reason) this.broken = { brokenAt: entry.seq, reason };
      else this.checkpoint = { seq: entry.seq, hash: entry.hash, offset: line.end };
      if (this.broken && !each) return;
    }
  }

  private writeBatch(inputs: AuditInput[]): Promise<AuditEntry[]> {
    const done = this.writeLinked(inputs);
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async writeLinked(inputs: AuditInput[]): Promise<AuditEntry[]> {
    const entries: AuditEntry[] = [];
    let head: ChainHead | undefined = this.head;
    for (const input of inputs) {
      const entry = nextEntry(input, head, this.o.now());
      entries.push(entry);
      head = entry;
    }
    const lines = entries.map((e) => `${JSON.stringify(e)}\n`);
    try {
      await this.files.writer.appendFile(lines.join(''));
      if (this.o.sync) await this.files.writer.datasync();
    } catch (err) {
      // Nothing half-written: cut what this batch may have left.
      await this.files.writer.truncate(this.size).catch(() => undefined);
      throw err;
    }
    entries.forEach((entry, i) => {
      this.hold(entry, this.size);
      this.size += Buffer.byteLength(lines[i]!);
    });
    this.count += entries.length;
    return entries;
  }

  append(input: AuditInput): Promise<AuditEntry> {
    return this.batcher.push(normalizeInput(input));
  }

  /** Newest first: the window, then older blocks of the file. */
  async query(filter: AuditFilter): Promise<AuditEntry[]> {
    const upper = filter.beforeSeq !== undefined ? filter.beforeSeq - 1 : Number.POSITIVE_INFINITY;
    const out: AuditEntry[] = [];
    const take = (e: AuditEntry): boolean => {
      if (e.seq <= upper && matches(e, filter)) out.push(e);
      return out.length >= filter.limit;
    };
    for (let i = this.window.size - 1; i >= 0; i--) {
      if (take(this.window.at(i).entry)) return out;
    }
    const diskEnd = this.window.size > 0 ? this.window.at(0).start : this.size;
    for (const block of this.marks.blocksBefore(diskEnd)) {
      if (block.firstSeq > upper) continue;
      const entries = await this.entriesBetween(block.start, block.end);
      for (let i = entries.length - 1; i >= 0; i--) if (take(entries[i]!)) return out;
    }
    return out;
  }

  /** The parseable entries stored between two byte offsets, oldest first. */
  private async entriesBetween(start: number, end: number): Promise<AuditEntry[]> {
    const entries: AuditEntry[] = [];
    for await (const line of readLines(this.files.reader, start, end)) {
      const e = parseEntry(line.text);
      if (e) entries.push(e);
    }
    return entries;
  }

  /** One check at a time; each starts where the last good one ended. */
  verify(options: VerifyOptions = {}): Promise<ChainVerification> {
    const run = this.verifying.then(() => this.verifyNow(options.full === true));
    this.verifying = run.catch(() => undefined);
    return run;
  }

  private async verifyNow(full: boolean): Promise<ChainVerification> {
    if (full) {
      this.checkpoint = GENESIS;
      this.broken = undefined;
    }
    const [end, count, lastSeq] = [this.size, this.count, this.head?.seq ?? 0];
    if (!this.broken) await this.walk(this.checkpoint, end);
    if (!this.broken && this.checkpoint.seq < lastSeq) {
      this.broken = { brokenAt: this.checkpoint.seq + 1, reason: 'entries missing' };
    }
    return this.broken ? { ok: false, entries: count, ...this.broken } : { ok: true, entries: count };
  }

  async close(): Promise<void> {
    await Promise.all([this.verifying, this.writing]);
    await Promise.all([this.files.writer.close(), this.files.reader.close()]);
    await this.files.release();
  }
}
