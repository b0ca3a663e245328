// Built layers, cached by a hash of their inputs: `<dir>/layers/<key>.json`
// records the compressed blob (digest, size) and its diff_id, and the blob
// sits in `<dir>/blobs/sha256/`. An unchanged layer is neither re-tarred nor
// re-gzipped, so its digest stays the same even where another zlib build
// would compress the same tar differently.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { readHostFile } from './host.ts';
import { blobPath, MEDIA_TYPE, sha256, type Layer } from './oci.ts';
import { normalizeEntries, tarChunks, type TarEntry } from './tar.ts';

/** Bump when the tar or gzip output changes for the same inputs. */
const FORMAT = 'layer-v1';

export interface StoredLayer extends Layer {
  uncompressedSize: number;
}

/**
 * A key for a layer's inputs: every entry's path, type, mode, owner, link
 * target and size, plus each host file's version (mtime and inode) or each
 * inline file's hash, and the archive mtime. Pure.
 */
export function entriesKey(entries: readonly TarEntry[], mtime: number): string {
  const hash = createHash('sha256').update(`${FORMAT}\n${mtime}\n`);
  for (const e of normalizeEntries(entries)) {
    const { path, type, mode, uid, gid } = e;
    const content =
      e.type === 'symlink'
        ? e.target
        : e.type === 'dir'
          ? ''
          : 'bytes' in e.source
            ? `${e.size}:${sha256(e.source.bytes)}`
            : `${e.size}:${e.source.hostPath}:${e.source.version ?? ''}`;
    hash.update(JSON.stringify([path, type, mode, uid, gid, content]) + '\n');
  }
  return hash.digest('hex');
}

export function blobFile(dir: string, digest: string): string {
  return join(dir, blobPath(digest));
}

function recordFile(dir: string, key: string): string {
  return join(dir, 'layers', `${key}.json`);
}

/** The cached layer for `key`, when its record and blob are both intact. */
export async function cachedLayer(dir: string, key: string): Promise<StoredLayer | undefined> {
  const record = recordFile(dir, key);
  if (!existsSync(record)) return undefined;
  const layer = JSON.parse(await readFile(record, 'utf8')) as StoredLayer;
  const blob = blobFile(dir, layer.descriptor.digest);
  const s = await stat(blob).catch(() => undefined);
  if (s?.size !== layer.descriptor.size) return undefined;
  // Pruning goes by last use; reuse counts as use.
  const now = new Date();
  await Promise.all([utimes(record, now, now), utimes(blob, now, now)]);
  return layer;
}

/** Writes to a unique temporary name, then renames: concurrent builds never see half a file. */
function temporary(path: string): string {
  return `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Tars and gzips `entries` into the store under `key`; returns the stored layer. */
export async function writeLayer(
  dir: string,
  key: string,
  entries: readonly TarEntry[],
  layer: { mtime: number; createdBy: string },
): Promise<StoredLayer> {
  await mkdir(join(dir, 'blobs', 'sha256'), { recursive: true });
  await mkdir(join(dir, 'layers'), { recursive: true });
  const tmp = temporary(join(dir, 'blobs', 'sha256', 'layer'));
  const diff = createHash('sha256');
  const compressed = createHash('sha256');
  let uncompressedSize = 0;
  let size = 0;
  try {
    await pipeline(
      tarChunks(entries, layer.mtime, readHostFile),
      async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          diff.update(chunk);
          uncompressedSize += chunk.length;
          yield chunk;
        }
      },
      createGzip(),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          compressed.update(chunk);
          size += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(tmp),
    );
    const digest = `sha256:${compressed.digest('hex')}`;
    await rename(tmp, blobFile(dir, digest));
    const stored: StoredLayer = {
      descriptor: { mediaType: MEDIA_TYPE.layerGzip, digest, size },
      diffId: `sha256:${diff.digest('hex')}`,
      createdBy: layer.createdBy,
      uncompressedSize,
    };
    const record = recordFile(dir, key);
    const recordTmp = temporary(record);
    await writeFile(recordTmp, JSON.stringify(stored, null, 2));
    await rename(recordTmp, record);
    return stored;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Removes layer records older than `cutoff`; returns the blob names (hex digests) the kept records name. */
async function pruneRecords(
  layersDir: string,
  cutoff: number,
): Promise<{ keep: Set<string>; removed: number }> {
  const keep = new Set<string>();
  let removed = 0;
  for (const name of await readdir(layersDir)) {
    const file = join(layersDir, name);
    const s = await stat(file);
    if (s.mtimeMs >= cutoff && name.endsWith('.json')) {
      keep.add((JSON.parse(await readFile(file, 'utf8')) as StoredLayer).descriptor.digest.slice(7));
    } else if (s.mtimeMs < cutoff) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return { keep, removed };
}

/**
 * Removes layer records and blobs not used for `maxAgeDays` (by mtime, which
 * reuse refreshes), so old application layers do not pile up. Blobs that a
 * kept record names are always kept.
 */
export async function pruneStore(dir: string, maxAgeDays: number, now = Date.now()): Promise<number> {
  const cutoff = now - maxAgeDays * 86_400_000;
  const layersDir = join(dir, 'layers');
  const blobsDir = join(dir, 'blobs', 'sha256');
  if (!existsSync(layersDir) || !existsSync(blobsDir)) return 0;
  const { keep, removed: removedRecords } = await pruneRecords(layersDir, cutoff);
  let removed = removedRecords;
  for (const name of await readdir(blobsDir)) {
    const s = await stat(join(blobsDir, name));
    if (keep.has(name) || s.mtimeMs >= cutoff) continue;
    await rm(join(blobsDir, name), { force: true });
    removed++;
  }
  return removed;
}
