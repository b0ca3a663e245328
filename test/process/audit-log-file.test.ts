// The embedded audit log's file (issue 13, finding 7): it outlives the
// process and its chain continues, a damaged file is reported rather than
// stopping the start, memory stays bounded however long the log, and
// `verify` hashes only new entries and lets the event loop run meanwhile.
import { appendFileSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEntries } from '../../api/audit/chain.ts';
import { FileAuditLog, type FileAuditLogOptions } from '../../api/audit/file.ts';
import { FileBusyError } from '../../base/file-lock.ts';
import type { AuditEntry } from '../../api/audit/log.ts';
import { auditInput } from './fixtures/audit-log-contract.ts';

const opened: FileAuditLog[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((log) => log.close()));
});

const freshPath = (): string => join(mkdtempSync(join(tmpdir(), 'audit-file-')), 'audit.jsonl');

async function openLog(path: string, o: Omit<FileAuditLogOptions, 'path'> = {}): Promise<FileAuditLog> {
  const log = await FileAuditLog.open({ path, ...o });
  opened.push(log);
  return log;
}

async function closeLog(log: FileAuditLog): Promise<void> {
  opened.splice(opened.indexOf(log), 1);
  await log.close();
}

async function appendMany(log: FileAuditLog, n: number, batch = 1000): Promise<void> {
  for (let i = 0; i < n; i += batch) {
    const size = Math.min(batch, n - i);
    await Promise.all(Array.from({ length: size }, (_, j) => log.append(auditInput(`s-${(i + j) % 7}`))));
  }
}

const fileLines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean);

/** Rewrites entry `seq` on disk, keeping its length (so the log's offsets stay right). */
function tamperInPlace(path: string, seq: number, from: string, to: string): void {
  expect(to).toHaveLength(from.length);
  const lines = readFileSync(path, 'utf8').split('\n');
  expect(lines[seq - 1]).toContain(from);
  lines[seq - 1] = lines[seq - 1]!.replace(from, to);
  writeFileSync(path, lines.join('\n'));
}

describe('the embedded audit log file', () => {
  it('survives a restart and continues its chain', async () => {
    const path = freshPath();
    const first = await openLog(path);
    for (const s of ['a', 'b', 'c']) await first.append(auditInput(s));
    await closeLog(first);

    const second = await openLog(path);
    expect(second.opened).toEqual({ entries: 3 });
    expect((await second.query({ limit: 10 })).map((e) => e.subject)).toEqual(['c', 'b', 'a']);
    const [third] = await second.query({ limit: 1 });
    const fourth = await second.append(auditInput('d'));
    expect(fourth).toMatchObject({ seq: 4, prevHash: third!.hash });
    expect(await second.verify()).toEqual({ ok: true, entries: 4 });
    const onDisk = fileLines(path).map((l) => JSON.parse(l) as AuditEntry);
    expect(verifyEntries(onDisk)).toEqual({ ok: true, entries: 4 });
  });

  it('refuses a second writer on the same file and takes over a dead one’s lock', async () => {
    const path = freshPath();
    const log = await openLog(path);
    await expect(FileAuditLog.open({ path })).rejects.toThrow(FileBusyError);
    await closeLog(log);
    // Another live process (the test runner that started this one) holds it.
    writeFileSync(`${path}.lock`, `${process.ppid}\n`);
    await expect(FileAuditLog.open({ path })).rejects.toThrow(/in use by process/);
    writeFileSync(`${path}.lock`, '999999999\n');
    await openLog(path);
  });

  it('reports an entry changed on disk at open, keeps appending, and keeps reporting it', async () => {
    const path = freshPath();
    const log = await openLog(path);
    for (const s of ['alice', 'bobby', 'carol', 'dave1', 'erin1']) await log.append(auditInput(s));
    await closeLog(log);
    tamperInPlace(path, 3, 'carol', 'mallo');

    const reopened = await openLog(path);
    expect(reopened.opened).toEqual({ entries: 5, broken: { brokenAt: 3, reason: 'content changed' } });
    await reopened.append(auditInput('frank'));
    expect(await reopened.verify()).toEqual({
      ok: false,
      entries: 6,
      brokenAt: 3,
      reason: 'content changed',
    });
  });

  it('finds a change made while open: new entries at once, verified ones on a full check', async () => {
    const path = freshPath();
    const log = await openLog(path, { window: 2 });
    for (const s of ['alice', 'bobby', 'carol']) await log.append(auditInput(s));
    expect(await log.verify()).toEqual({ ok: true, entries: 3 });
    for (const s of ['dave1', 'erin1']) await log.append(auditInput(s));
    tamperInPlace(path, 2, 'bobby', 'mallo');
    // bobby was verified before the change: an incremental check does not hash it again.
    expect(await log.verify()).toEqual({ ok: true, entries: 5 });
    expect(await log.verify({ full: true })).toEqual({
      ok: false,
      entries: 5,
      brokenAt: 2,
      reason: 'content changed',
    });
    tamperInPlace(path, 2, 'mallo', 'bobby');
    expect(await log.verify({ full: true })).toEqual({ ok: true, entries: 5 });
    for (const s of ['frank', 'gina1']) await log.append(auditInput(s));
    tamperInPlace(path, 6, 'frank', 'mallo');
    expect(await log.verify()).toEqual({ ok: false, entries: 7, brokenAt: 6, reason: 'content changed' });
  });

  it('reports entries cut from the end of the file', async () => {
    const path = freshPath();
    const log = await openLog(path);
    for (const s of ['a', 'b', 'c', 'd']) await log.append(auditInput(s));
    const keep = fileLines(path).slice(0, 2).join('\n').length + 1;
    truncateSync(path, keep);
    expect(await log.verify()).toEqual({ ok: false, entries: 4, brokenAt: 3, reason: 'entries missing' });
  });

  it('sets a torn last line aside and continues the chain from the last whole entry', async () => {
    const path = freshPath();
    const log = await openLog(path);
    for (const s of ['a', 'b', 'c']) await log.append(auditInput(s));
    await closeLog(log);
    const torn = '{"subject":"d","method":"api_k';
    appendFileSync(path, torn);

    const reopened = await openLog(path);
    expect(reopened.opened).toMatchObject({ entries: 3, torn: { bytes: torn.length } });
    expect(readFileSync(reopened.opened.torn!.savedTo, 'utf8')).toBe(torn);
    expect(await reopened.verify()).toEqual({ ok: true, entries: 3 });
    expect(await reopened.append(auditInput('d'))).toMatchObject({ seq: 4 });
    expect(verifyEntries(fileLines(path).map((l) => JSON.parse(l) as AuditEntry))).toEqual({
      ok: true,
      entries: 4,
    });
  });

  it('starts on a file whose last line is not an entry, and reports it', async () => {
    const path = freshPath();
    const log = await openLog(path);
    for (const s of ['a', 'b']) await log.append(auditInput(s));
    await closeLog(log);
    appendFileSync(path, 'not json\n');

    const reopened = await openLog(path);
    expect(reopened.opened).toEqual({ entries: 3, broken: { brokenAt: 3, reason: 'unreadable entry' } });
    expect(await reopened.verify()).toMatchObject({ ok: false, brokenAt: 3, reason: 'unreadable entry' });
  });

  it('hashes only the entries added since the last check', async () => {
    const log = await openLog(freshPath(), { sync: false });
    await appendMany(log, 1000);
    expect(await log.verify()).toEqual({ ok: true, entries: 1000 });
    expect(log.hashed).toBe(1000);
    await appendMany(log, 10);
    expect(await log.verify()).toEqual({ ok: true, entries: 1010 });
    expect(log.hashed).toBe(1010);
    expect(await log.verify()).toEqual({ ok: true, entries: 1010 });
    expect(log.hashed).toBe(1010);
    expect(await log.verify({ full: true })).toEqual({ ok: true, entries: 1010 });
    expect(log.hashed).toBe(2020);
  });

  it('lets the event loop run while it verifies a long log', async () => {
    const log = await openLog(freshPath(), { sync: false });
    await appendMany(log, 20_000);
    // A callback that runs on every turn of the event loop notes how far the
    // check has got: a blocking check would let it in only once it is done.
    const seenAt: number[] = [];
    let verifying = true;
    const tick = (): void => {
      seenAt.push(log.hashed);
      if (verifying) setImmediate(tick);
    };
    setImmediate(tick);
    const check = await log.verify();
    verifying = false;
    expect(check).toEqual({ ok: true, entries: 20_000 });
    const widestGap = Math.max(...seenAt.map((h, i) => h - (seenAt[i - 1] ?? 0)));
    expect(widestGap).toBeLessThanOrEqual(512);
  });

  it('keeps bounded memory for 200k entries and pages through the file', async () => {
    const log = await openLog(freshPath(), { sync: false, window: 100, maxMarks: 16 });
    await appendMany(log, 200_000, 5000);
    expect(log.memory()).toMatchObject({ window: 100 });
    expect(log.memory().marks).toBeLessThanOrEqual(16);
    expect((await log.query({ limit: 3 })).map((e) => e.seq)).toEqual([200_000, 199_999, 199_998]);
    expect((await log.query({ limit: 3, beforeSeq: 1000 })).map((e) => e.seq)).toEqual([999, 998, 997]);
    expect((await log.query({ limit: 2, beforeSeq: 3 })).map((e) => e.seq)).toEqual([2, 1]);
    // s-3 is every 7th entry from seq 4: a page of 1000 spans window and file.
    const page = await log.query({ subject: 's-3', limit: 1000, beforeSeq: 150_010 });
    expect(page).toHaveLength(1000);
    expect(page.every((e, i) => e.subject === 's-3' && (i === 0 || e.seq === page[i - 1]!.seq - 7))).toBe(
      true,
    );
    expect(await log.verify()).toEqual({ ok: true, entries: 200_000 });
  });

  it('pages through every entry, newest first, with the before cursor', async () => {
    const log = await openLog(freshPath(), { sync: false, window: 50, maxMarks: 4 });
    await appendMany(log, 3000);
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await log.query({ limit: 128, ...(before !== undefined ? { beforeSeq: before } : {}) });
      seen.push(...page.map((e) => e.seq));
      if (page.length < 128) break;
      before = page.at(-1)!.seq;
    }
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => 3000 - i));
  });
});
