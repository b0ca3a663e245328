// A small deterministic tar writer for image layers: POSIX ustar headers, a
// PAX extended header when a path or link target does not fit, regular files,
// directories and symlinks only. Every entry gets the same mtime and numeric
// owners with empty owner names, and entries are sorted, so the same files
// always give the same bytes (and so the same layer digest).
//
// Pure: file contents come either inline or through an injected reader.

/**
 * Inline bytes, or a host file read while writing. `version` (e.g. mtime and
 * inode) is not written: it only lets a cache tell a changed file apart.
 */
export type FileSource = { bytes: Uint8Array } | { hostPath: string; version?: string };

interface EntryBase {
  /** Path inside the archive, without a leading `/` (one is stripped). */
  path: string;
  /** Permission bits; files default to 0644, directories to 0755. */
  mode?: number;
  uid?: number;
  gid?: number;
}
export interface DirEntry extends EntryBase {
  type: 'dir';
}
export interface FileEntry extends EntryBase {
  type: 'file';
  size: number;
  source: FileSource;
}
export interface SymlinkEntry extends EntryBase {
  type: 'symlink';
  target: string;
}
export type TarEntry = DirEntry | FileEntry | SymlinkEntry;

/** Yields a host file's bytes; must yield exactly `size` bytes. */
export type ReadFile = (hostPath: string, size: number) => AsyncIterable<Uint8Array>;

const BLOCK = 512;
const TYPEFLAG = { file: '0', symlink: '2', dir: '5', pax: 'x' } as const;
const encoder = new TextEncoder();

export function normalizePath(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) throw new Error(`bad archive path ${JSON.stringify(path)}`);
  return parts.join('/');
}

function sameEntry(a: TarEntry, b: TarEntry): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Entries ready to write: paths normalized, missing parent directories added
 * (0755, root), sorted by path bytes so that a directory precedes its
 * children. The same path twice is an error unless both entries are equal.
 */
export function normalizeEntries(entries: readonly TarEntry[]): TarEntry[] {
  const byPath = new Map<string, TarEntry>();
  for (const e of entries) {
    const entry = { ...e, path: normalizePath(e.path) };
    const seen = byPath.get(entry.path);
    if (seen && !sameEntry(seen, entry)) throw new Error(`two different entries for ${entry.path}`);
    byPath.set(entry.path, entry);
  }
  for (const path of [...byPath.keys()]) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const seen = byPath.get(parent);
      if (seen && seen.type !== 'dir') throw new Error(`${parent} is not a directory but holds ${path}`);
      if (!seen) byPath.set(parent, { type: 'dir', path: parent });
    }
  }
  return [...byPath.values()].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

function writeString(block: Uint8Array, offset: number, length: number, value: string): void {
  const bytes = encoder.encode(value);
  if (bytes.length > length) throw new Error(`${JSON.stringify(value)} does not fit ${length} bytes`);
  block.set(bytes, offset);
}

/** An octal number, zero-padded, NUL-terminated: the classic tar numeric field. */
function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  const digits = value.toString(8);
  if (!Number.isSafeInteger(value) || value < 0 || digits.length > length - 1)
    throw new Error(`${value} does not fit a ${length}-byte tar field`);
  writeString(block, offset, length, digits.padStart(length - 1, '0'));
}

export interface HeaderFields {
  name: string;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: number;
  typeflag: string;
  linkname: string;
}

/** One 512-byte ustar header; `name` and `linkname` must fit their 100 bytes. */
export function ustarHeader(h: HeaderFields): Uint8Array {
  const block = new Uint8Array(BLOCK);
  writeString(block, 0, 100, h.name);
  writeOctal(block, 100, 8, h.mode);
  writeOctal(block, 108, 8, h.uid);
  writeOctal(block, 116, 8, h.gid);
  writeOctal(block, 124, 12, h.size);
  writeOctal(block, 136, 12, h.mtime);
  block.fill(0x20, 148, 156); // the checksum is summed with its own field as spaces
  writeString(block, 156, 1, h.typeflag);
  writeString(block, 157, 100, h.linkname);
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeOctal(block, 329, 8, 0);
  writeOctal(block, 337, 8, 0);
  const sum = block.reduce((a, b) => a + b, 0);
  writeString(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** One PAX record, `"<len> <key>=<value>\n"`, where len counts the whole record. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = encoder.encode(body).length;
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length = String(length).length + bodyLength;
  return `${length}${body}`;
}

function padding(size: number): Uint8Array {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/** Keeps the first `max` bytes of a string without splitting a UTF-8 sequence. */
function truncateBytes(value: string, max: number): string {
  let out = '';
  for (const ch of value) {
    if (encoder.encode(out + ch).length > max) break;
    out += ch;
  }
  return out;
}

const DEFAULT_MODE = { file: 0o644, dir: 0o755, symlink: 0o777 } as const;

/** Mode, owner and time of an entry's headers (defaults: the type's mode, root). */
function ownership(
  entry: TarEntry,
  mtime: number,
): { mode: number; uid: number; gid: number; mtime: number } {
  return { mode: entry.mode ?? DEFAULT_MODE[entry.type], uid: entry.uid ?? 0, gid: entry.gid ?? 0, mtime };
}

/** The header blocks of one entry: a PAX header and its records first when needed. */
export function entryHeaders(entry: TarEntry, mtime: number): Uint8Array[] {
  const name = entry.type === 'dir' ? `${entry.path}/` : entry.path;
  const linkname = entry.type === 'symlink' ? entry.target : '';
  const records = [
    encoder.encode(name).length > 100 ? paxRecord('path', name) : '',
    encoder.encode(linkname).length > 100 ? paxRecord('linkpath', linkname) : '',
  ].join('');
  const base = ownership(entry, mtime);
  const header = ustarHeader({
    ...base,
    name: truncateBytes(name, 100),
    linkname: truncateBytes(linkname, 100),
    size: entry.type === 'file' ? entry.size : 0,
    typeflag: TYPEFLAG[entry.type],
  });
  if (records === '') return [header];
  const body = encoder.encode(records);
  const basename = name.replace(/\/$/, '').split('/').pop() ?? '';
  const pax = ustarHeader({
    ...base,
    mode: 0o644,
    name: truncateBytes(`PaxHeader/${basename}`, 100),
    linkname: '',
    size: body.length,
    typeflag: TYPEFLAG.pax,
  });
  return [pax, body, padding(body.length), header];
}

async function* fileBody(entry: FileEntry, read: ReadFile): AsyncGenerator<Uint8Array> {
  if ('bytes' in entry.source) {
    if (entry.source.bytes.length !== entry.size)
      throw new Error(`${entry.path}: size does not match its bytes`);
    yield entry.source.bytes;
  } else {
    let seen = 0;
    for await (const chunk of read(entry.source.hostPath, entry.size)) {
      seen += chunk.length;
      yield chunk;
    }
    // A file that changed between planning and writing would corrupt the archive.
    if (seen !== entry.size) throw new Error(`${entry.source.hostPath} changed size while being archived`);
  }
  yield padding(entry.size);
}

/**
 * The archive's bytes, in chunks. `mtime` is in seconds since the epoch
 * (0, or SOURCE_DATE_EPOCH for reproducible builds).
 */
export async function* tarChunks(
  entries: readonly TarEntry[],
  mtime: number,
  read: ReadFile = noHostFiles,
): AsyncGenerator<Uint8Array> {
  for (const entry of normalizeEntries(entries)) {
    yield* entryHeaders(entry, mtime);
    if (entry.type === 'file') yield* fileBody(entry, read);
  }
  yield new Uint8Array(BLOCK * 2);
}

function noHostFiles(hostPath: string): AsyncIterable<Uint8Array> {
  throw new Error(`no reader for host file ${hostPath}`);
}
