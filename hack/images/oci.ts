// OCI image documents (image-spec v1.0): descriptors, the image config, the
// manifest and the layout's index.json. Pure: values in, canonical bytes out.
// JSON is written with a fixed key order, so the same image gives the same
// config and manifest digests.
import { createHash } from 'node:crypto';

export const MEDIA_TYPE = {
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  index: 'application/vnd.oci.image.index.v1+json',
} as const;

/** Read by containerd's importer: the full name to give the image. */
export const ANNOTATION_IMAGE_NAME = 'io.containerd.image.name';
/** The OCI layout's own reference: the tag. */
export const ANNOTATION_REF_NAME = 'org.opencontainers.image.ref.name';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

/** A document (or any bytes) with its descriptor. */
export interface Blob {
  descriptor: Descriptor;
  bytes: Buffer;
}

export interface Layer {
  /** The compressed blob as stored and shipped. */
  descriptor: Descriptor;
  /** sha256 of the uncompressed tar: what the config's rootfs lists. */
  diffId: string;
  /** What the history entry says made this layer. */
  createdBy: string;
}

export interface ContainerConfig {
  User?: string;
  ExposedPorts?: Record<string, Record<string, never>>;
  Env?: string[];
  Entrypoint?: string[];
  Cmd?: string[];
  WorkingDir?: string;
  Labels?: Record<string, string>;
}

export function sha256(bytes: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export function jsonBlob(mediaType: string, value: unknown): Blob {
  const bytes = Buffer.from(JSON.stringify(value));
  return { descriptor: { mediaType, digest: sha256(bytes), size: bytes.length }, bytes };
}

/** An RFC 3339 time from seconds since the epoch (SOURCE_DATE_EPOCH or 0). */
export function createdAt(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.000Z$/, 'Z');
}

export function imageConfig(config: ContainerConfig, layers: readonly Layer[], epochSeconds: number): Blob {
  const created = createdAt(epochSeconds);
  return jsonBlob(MEDIA_TYPE.config, {
    created,
    architecture: 'amd64',
    os: 'linux',
    config,
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: layers.map((l) => ({ created, created_by: l.createdBy })),
  });
}

export function imageManifest(config: Blob, layers: readonly Layer[]): Blob {
  return jsonBlob(MEDIA_TYPE.manifest, {
    schemaVersion: 2,
    mediaType: MEDIA_TYPE.manifest,
    config: config.descriptor,
    layers: layers.map((l) => l.descriptor),
  });
}

export interface ImageReference {
  /** Everything before the tag, e.g. `localhost/agent-platform/platform`. */
  repository: string;
  tag: string;
}

/** Splits `host/path/name:tag`; a colon inside the host part (a port) is not a tag. */
export function parseReference(name: string): ImageReference {
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon <= slash || colon === name.length - 1) throw new Error(`image name ${name} has no tag`);
  return { repository: name.slice(0, colon), tag: name.slice(colon + 1) };
}

export interface NamedManifest {
  name: string;
  manifest: Descriptor;
}

/** The layout's index.json: one manifest per image, named for containerd and by OCI tag. */
export function layoutIndex(images: readonly NamedManifest[]): Blob {
  const manifests = [...images]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((i) => ({
      mediaType: i.manifest.mediaType,
      digest: i.manifest.digest,
      size: i.manifest.size,
      annotations: { [ANNOTATION_IMAGE_NAME]: i.name, [ANNOTATION_REF_NAME]: parseReference(i.name).tag },
    }));
  return jsonBlob(MEDIA_TYPE.index, { schemaVersion: 2, mediaType: MEDIA_TYPE.index, manifests });
}

export const OCI_LAYOUT = Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' }));

/** Where a blob lives inside an OCI layout. */
export function blobPath(digest: string): string {
  const [algorithm, hex] = digest.split(':');
  if (algorithm !== 'sha256' || !hex || !/^[0-9a-f]{64}$/.test(hex)) throw new Error(`bad digest ${digest}`);
  return `blobs/sha256/${hex}`;
}
