// Writes an OCI image layout directory (image-spec "image-layout"): the
// `oci-layout` marker, `index.json` naming every image, and `blobs/sha256/`.
// Layer blobs are hard links into the layer store (copies across file
// systems); blobs no image in the index uses are removed once a day old.
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blobPath, layoutIndex, OCI_LAYOUT, type Blob, type Descriptor } from './oci.ts';

export interface LayoutImage {
  name: string;
  manifest: Blob;
  config: Blob;
  layers: readonly { descriptor: Descriptor }[];
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  if (existsSync(to)) return; // content-addressed: same name, same bytes
  const tmp = `${to}.tmp-${process.pid}`;
  await link(from, tmp).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV' && err.code !== 'EPERM') throw err;
    await copyFile(from, tmp);
  });
  await rename(tmp, to);
}

async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

/** Every blob an image needs: manifest, config and layers. */
export function imageDigests(image: LayoutImage): string[] {
  return [
    image.manifest.descriptor.digest,
    image.config.descriptor.digest,
    ...image.layers.map((l) => l.descriptor.digest),
  ];
}

export async function writeLayout(
  dir: string,
  storeDir: string,
  images: readonly LayoutImage[],
): Promise<void> {
  await mkdir(join(dir, 'blobs', 'sha256'), { recursive: true });
  for (const image of images) {
    for (const layer of image.layers) {
      const path = blobPath(layer.descriptor.digest);
      await linkOrCopy(join(storeDir, path), join(dir, path));
    }
    for (const doc of [image.config, image.manifest]) {
      const path = join(dir, blobPath(doc.descriptor.digest));
      if (!existsSync(path)) await writeAtomic(path, doc.bytes);
    }
  }
  await writeAtomic(join(dir, 'oci-layout'), OCI_LAYOUT);
  const index = layoutIndex(images.map((i) => ({ name: i.name, manifest: i.manifest.descriptor })));
  await writeAtomic(join(dir, 'index.json'), index.bytes);
  await pruneBlobs(join(dir, 'blobs', 'sha256'), new Set(images.flatMap(imageDigests)));
}

/** Unused blobs stay a day: a concurrent build (another checkout) may be writing or importing them. */
const PRUNE_AFTER_MS = 86_400_000;

async function pruneBlobs(blobsDir: string, used: ReadonlySet<string>): Promise<void> {
  const cutoff = Date.now() - PRUNE_AFTER_MS;
  for (const name of await readdir(blobsDir)) {
    if (used.has(`sha256:${name}`)) continue;
    const s = await stat(join(blobsDir, name)).catch(() => undefined);
    if (s && s.mtimeMs < cutoff) await rm(join(blobsDir, name), { force: true });
  }
}
