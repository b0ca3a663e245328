import { describe, expect, it } from 'vitest';
import { chainId, parseImageList } from './containerd.ts';
import {
  ANNOTATION_IMAGE_NAME,
  ANNOTATION_REF_NAME,
  blobPath,
  createdAt,
  imageConfig,
  imageManifest,
  layoutIndex,
  MEDIA_TYPE,
  parseReference,
  sha256,
  type Layer,
} from './oci.ts';

const digest = (c: string): string => `sha256:${c.repeat(64)}`;
const layers: Layer[] = [
  {
    descriptor: { mediaType: MEDIA_TYPE.layerGzip, digest: digest('a'), size: 10 },
    diffId: digest('1'),
    createdBy: 'one',
  },
  {
    descriptor: { mediaType: MEDIA_TYPE.layerGzip, digest: digest('b'), size: 20 },
    diffId: digest('2'),
    createdBy: 'two',
  },
];

describe('image config and manifest', () => {
  it('lists the uncompressed diff_ids bottom to top with one history entry per layer', () => {
    const config = imageConfig({ User: '1000:1000', Cmd: ['run'] }, layers, 86400);
    const doc = JSON.parse(config.bytes.toString()) as Record<string, unknown>;
    expect(doc).toEqual({
      created: '1970-01-02T00:00:00Z',
      architecture: 'amd64',
      os: 'linux',
      config: { User: '1000:1000', Cmd: ['run'] },
      rootfs: { type: 'layers', diff_ids: [digest('1'), digest('2')] },
      history: [
        { created: '1970-01-02T00:00:00Z', created_by: 'one' },
        { created: '1970-01-02T00:00:00Z', created_by: 'two' },
      ],
    });
    expect(config.descriptor).toEqual({
      mediaType: MEDIA_TYPE.config,
      digest: sha256(config.bytes),
      size: config.bytes.length,
    });
  });

  it('points the manifest at the config and the compressed layers', () => {
    const config = imageConfig({}, layers, 0);
    const manifest = imageManifest(config, layers);
    expect(JSON.parse(manifest.bytes.toString())).toEqual({
      schemaVersion: 2,
      mediaType: MEDIA_TYPE.manifest,
      config: config.descriptor,
      layers: layers.map((l) => l.descriptor),
    });
    expect(manifest.descriptor.mediaType).toBe(MEDIA_TYPE.manifest);
  });

  it('gives the same bytes for the same inputs', () => {
    const one = imageManifest(imageConfig({ Env: ['A=1'] }, layers, 0), layers);
    const two = imageManifest(imageConfig({ Env: ['A=1'] }, layers, 0), layers);
    expect(one.descriptor.digest).toBe(two.descriptor.digest);
    expect(createdAt(0)).toBe('1970-01-01T00:00:00Z');
  });
});

describe('layout index', () => {
  it('names each manifest in full for containerd and by tag for OCI, sorted by name', () => {
    const m = (c: string): { mediaType: string; digest: string; size: number } => ({
      mediaType: MEDIA_TYPE.manifest,
      digest: digest(c),
      size: 5,
    });
    const index = JSON.parse(
      layoutIndex([
        { name: 'localhost/agent-platform/pause:3.10', manifest: m('c') },
        { name: 'localhost/agent-platform/platform:dev', manifest: m('d') },
      ]).bytes.toString(),
    ) as { manifests: { digest: string; annotations: Record<string, string> }[]; mediaType: string };
    expect(index.mediaType).toBe(MEDIA_TYPE.index);
    expect(index.manifests.map((x) => x.annotations)).toEqual([
      { [ANNOTATION_IMAGE_NAME]: 'localhost/agent-platform/pause:3.10', [ANNOTATION_REF_NAME]: '3.10' },
      { [ANNOTATION_IMAGE_NAME]: 'localhost/agent-platform/platform:dev', [ANNOTATION_REF_NAME]: 'dev' },
    ]);
  });

  it('splits the tag from the name but not a registry port', () => {
    expect(parseReference('localhost:5000/a/b:v1')).toEqual({ repository: 'localhost:5000/a/b', tag: 'v1' });
    expect(() => parseReference('localhost:5000/a/b')).toThrow(/no tag/);
  });

  it('stores blobs under blobs/sha256 and refuses anything else', () => {
    expect(blobPath(digest('e'))).toBe(`blobs/sha256/${'e'.repeat(64)}`);
    expect(() => blobPath('sha256:../../etc/passwd')).toThrow(/bad digest/);
  });
});

describe('containerd', () => {
  it('reads name and digest from `ctr images ls`', () => {
    const out = [
      'REF                               TYPE                                       DIGEST       SIZE     PLATFORMS   LABELS',
      `localhost/agent-platform/pause:3.10 application/vnd.oci.image.manifest.v1+json ${digest('f')} 305.4 KiB linux/amd64 -`,
      '',
    ].join('\n');
    expect(parseImageList(out)).toEqual(new Map([['localhost/agent-platform/pause:3.10', digest('f')]]));
  });

  it('names the top snapshot by the OCI chain ID', () => {
    expect(chainId([digest('1')])).toBe(digest('1'));
    expect(chainId([digest('1'), digest('2')])).toBe(sha256(`${digest('1')} ${digest('2')}`));
  });
});
