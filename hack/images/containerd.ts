// Imports built images into containerd with `ctr images import`, in the
// `k8s.io` namespace where the CRI plugin (and so the kubelet) looks. The
// import unpacks into the overlayfs snapshotter, which the CRI plugin uses by
// default, so a pod can use the image at once. The archive is streamed to
// ctr's stdin by our tar writer: no temporary tar on disk.
//
// An image is skipped when containerd already has that manifest digest under
// that name and its top snapshot exists (i.e. it was unpacked).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MissingPrerequisite, readHostFile, run, which } from './host.ts';
import { blobPath, layoutIndex, OCI_LAYOUT, sha256, type Blob, type Descriptor } from './oci.ts';
import { tarChunks, type TarEntry } from './tar.ts';

export const DEFAULT_ADDRESS = '/run/containerd/containerd.sock';
export const CRI_NAMESPACE = 'k8s.io';
export const CRI_SNAPSHOTTER = 'overlayfs';

export interface ContainerdOptions {
  /** containerd's socket; /run/containerd/containerd.sock by default. */
  address?: string;
  namespace?: string;
  snapshotter?: string;
  /** The ctr binary; found on PATH by default. */
  ctr?: string;
  log?: (line: string) => void;
}

/** What importImages needs of a built image. */
export interface ImportableImage {
  name: string;
  manifest: Blob;
  config: Blob;
  layers: readonly { descriptor: Descriptor; diffId: string; uncompressedSize?: number }[];
}

export interface ImportResult {
  name: string;
  digest: string;
  /** False when containerd already had it. */
  imported: boolean;
  seconds: number;
}

/** `ctr images ls` output → image name → manifest digest. Pure. */
export function parseImageList(output: string): Map<string, string> {
  const images = new Map<string, string>();
  for (const line of output.split('\n').slice(1)) {
    const [ref, , digest] = line.trim().split(/\s+/);
    if (ref && digest?.startsWith('sha256:')) images.set(ref, digest);
  }
  return images;
}

/** The OCI chain ID of a layer stack: the name containerd gives the top snapshot. Pure. */
export function chainId(diffIds: readonly string[]): string {
  let chain = diffIds[0];
  if (!chain) throw new Error('an image needs at least one layer');
  for (const diffId of diffIds.slice(1)) chain = sha256(`${chain} ${diffId}`);
  return chain;
}

interface Ctr {
  bin: string;
  global: string[];
  snapshotter: string;
}

/** Finds ctr and checks that containerd answers on the socket; MissingPrerequisite otherwise. */
export async function connect(options: ContainerdOptions = {}): Promise<Ctr> {
  const address = options.address ?? DEFAULT_ADDRESS;
  const bin = options.ctr ?? which('ctr');
  if (!bin)
    throw new MissingPrerequisite('ctr not found on PATH: install containerd (apt-get install containerd)');
  if (!existsSync(address))
    throw new MissingPrerequisite(`no containerd socket at ${address} (is containerd running?)`);
  const global = ['--address', address, '--namespace', options.namespace ?? CRI_NAMESPACE];
  try {
    await run(bin, [...global, 'version'], { timeoutMs: 10_000 });
  } catch (err) {
    // run() says which command failed; the user only needs ctr's own complaint.
    const detail = (err as Error).message.replace(/^[^]*? failed: /, '').split('\n')[0];
    throw new MissingPrerequisite(`containerd at ${address} does not answer: ${detail}`);
  }
  return { bin, global, snapshotter: options.snapshotter ?? CRI_SNAPSHOTTER };
}

/** Name → manifest digest of every image in the namespace. */
export async function listImages(ctr: Ctr): Promise<Map<string, string>> {
  return parseImageList(await run(ctr.bin, [...ctr.global, 'images', 'ls']));
}

async function unpacked(ctr: Ctr, image: ImportableImage): Promise<boolean> {
  const top = chainId(image.layers.map((l) => l.diffId));
  const args = [...ctr.global, 'snapshots', '--snapshotter', ctr.snapshotter, 'info', top];
  return run(ctr.bin, args).then(
    () => true,
    () => false,
  );
}

/** The archive ctr reads: an OCI layout holding only `images`. */
export function archiveEntries(layoutDir: string, images: readonly ImportableImage[]): TarEntry[] {
  const inline = (path: string, bytes: Uint8Array): TarEntry => ({
    type: 'file',
    path,
    size: bytes.length,
    source: { bytes },
  });
  const index = layoutIndex(images.map((i) => ({ name: i.name, manifest: i.manifest.descriptor })));
  const entries: TarEntry[] = [inline('oci-layout', OCI_LAYOUT), inline('index.json', index.bytes)];
  for (const image of images) {
    for (const doc of [image.manifest, image.config])
      entries.push(inline(blobPath(doc.descriptor.digest), doc.bytes));
    for (const { descriptor } of image.layers) {
      const path = blobPath(descriptor.digest);
      entries.push({
        type: 'file',
        path,
        size: descriptor.size,
        source: { hostPath: join(layoutDir, path) },
      });
    }
  }
  return entries;
}

async function ctrImport(ctr: Ctr, entries: readonly TarEntry[]): Promise<void> {
  const args = [...ctr.global, 'images', 'import', '--snapshotter', ctr.snapshotter, '-'];
  const child = spawn(ctr.bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const fed = pipeline(Readable.from(tarChunks(entries, 0, readHostFile)), child.stdin);
  const [code] = await Promise.all([exited, fed.catch(() => undefined)]);
  if (code !== 0) throw new Error(`ctr images import exited ${code}: ${output.trim()}`);
}

/**
 * Imports every image containerd does not already hold at the same digest
 * (unpacked), in one `ctr images import`, then checks each name's digest.
 */
export async function importImages(
  build: { layoutDir: string; images: readonly ImportableImage[] },
  options: ContainerdOptions = {},
): Promise<ImportResult[]> {
  const log = options.log ?? (() => undefined);
  const ctr = await connect(options);
  const before = await listImages(ctr);
  const todo: ImportableImage[] = [];
  for (const image of build.images) {
    const same = before.get(image.name) === image.manifest.descriptor.digest;
    if (same && (await unpacked(ctr, image))) log(`import ${image.name}: already in containerd, skipped`);
    else todo.push(image);
  }
  const started = performance.now();
  if (todo.length > 0) await ctrImport(ctr, archiveEntries(build.layoutDir, todo));
  const seconds = (performance.now() - started) / 1000;
  const after = todo.length > 0 ? await listImages(ctr) : before;
  return build.images.map((image) => {
    const digest = image.manifest.descriptor.digest;
    const imported = todo.includes(image);
    if (after.get(image.name) !== digest)
      throw new Error(`containerd has ${image.name} at ${after.get(image.name) ?? 'nothing'}, not ${digest}`);
    if (imported) log(`import ${image.name}: ${digest.slice(0, 19)} imported in ${seconds.toFixed(1)} s`);
    return { name: image.name, digest, imported, seconds: imported ? seconds : 0 };
  });
}
