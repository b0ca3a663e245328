// Builds the project's images as an OCI layout without Docker: each layer
// from the cache when its inputs are unchanged, else tarred and gzipped by our
// own writer; then configs, manifests and the layout's index.json.
//   runtime  Node 24, dash, iptables-nft and their libraries, /etc basics
//   deps     production node_modules and package.json at /app
//   app      the compiled dist/, the UI bundle (ui/dist/) and bin/ at /app
//   pause    the static pause binary
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot, REPO_ROOT } from '../control-plane/paths.ts';
import {
  IMAGE_IDS,
  imageDefinitions,
  layersFor,
  type ImageDefinition,
  type ImageId,
  type LayerId,
} from './definitions.ts';
import { libraries, resolvePlan, walkTree } from './host.ts';
import {
  appSourcesKey,
  buildUi,
  compileApp,
  ensureDeps,
  ensureNode24,
  ensurePause,
  pruneDeps,
  UI_IMAGE_DIR,
} from './inputs.ts';
import { writeLayout, type LayoutImage } from './layout.ts';
import { cachedLayer, entriesKey, pruneStore, writeLayer, type StoredLayer } from './layer-store.ts';
import { imageConfig, imageManifest } from './oci.ts';
import { HOST, runtimePlan } from './rootfs.ts';
import type { TarEntry } from './tar.ts';

export interface BuildOptions {
  /** Which images; all three by default. */
  only?: readonly ImageId[];
  /** The OCI layout directory; `<cache>/oci` by default. */
  outDir?: string;
  /** The checkout to build from; this repository by default. */
  repoRoot?: string;
  /** The images cache; `imagesCacheDir()` by default. */
  cacheDir?: string;
  /** Every file's mtime and every `created` time; SOURCE_DATE_EPOCH or 0 by default. */
  epochSeconds?: number;
  log?: (line: string) => void;
}

export interface BuiltLayer extends StoredLayer {
  id: LayerId;
  reused: boolean;
  seconds: number;
}

export interface BuiltImage extends LayoutImage {
  id: ImageId;
  layers: BuiltLayer[];
  /** Manifest, config and compressed layers: what a registry or containerd stores. */
  size: number;
  /** The layers' tars: roughly what the unpacked image takes on disk. */
  uncompressedSize: number;
}

export interface BuildResult {
  layoutDir: string;
  images: BuiltImage[];
  seconds: number;
}

/** Unused cached layers and dependency installs go after this long. */
const KEEP_DAYS = 14;

export function imagesCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'images');
}

export function sourceDateEpoch(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.SOURCE_DATE_EPOCH;
  if (value === undefined || value === '') return 0;
  if (!/^\d+$/.test(value)) throw new Error(`SOURCE_DATE_EPOCH=${value} is not a number of seconds`);
  return Number(value);
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

interface Context {
  repoRoot: string;
  cacheDir: string;
  epoch: number;
  log: (line: string) => void;
}

/** A layer's inputs: its cache key, and (only when the cache misses) its entries. */
interface LayerSource {
  key: string;
  createdBy: string;
  entries: () => Promise<TarEntry[]>;
  cleanup?: () => Promise<void>;
}

async function runtimeSource(ctx: Context): Promise<LayerSource> {
  const node = await ensureNode24(cacheRoot());
  const modules = (await walkTree(HOST.xtablesModules, HOST.xtablesModules)).flatMap((m) =>
    m.type === 'file' && 'hostPath' in m.source ? [m.source.hostPath] : [],
  );
  const libs = await libraries([node.binary, HOST.dash, HOST.env, HOST.xtables, ...modules]);
  const entries = await resolvePlan(runtimePlan({ node: node.binary, libraries: libs }));
  return {
    key: entriesKey(entries, ctx.epoch),
    createdBy: `agent-platform images: runtime (node v${node.version}, dash, env, iptables-nft, ${libs.length} libraries)`,
    entries: () => Promise.resolve(entries),
  };
}

async function depsSource(ctx: Context): Promise<LayerSource> {
  const modules = await ensureDeps(ctx.cacheDir, ctx.repoRoot);
  const packageJson = await readFile(join(ctx.repoRoot, 'package.json'));
  const entries: TarEntry[] = [
    ...(await walkTree(modules, '/app/node_modules')),
    { type: 'file', path: '/app/package.json', size: packageJson.length, source: { bytes: packageJson } },
  ];
  return {
    key: entriesKey(entries, ctx.epoch),
    createdBy: 'agent-platform images: npm ci --omit=dev --ignore-scripts; package.json',
    entries: () => Promise.resolve(entries),
  };
}

async function appSource(ctx: Context): Promise<LayerSource> {
  const staging = join(ctx.cacheDir, `app-staging-${process.pid}`);
  return {
    key: `app-${await appSourcesKey(ctx.repoRoot)}-${ctx.epoch}`,
    createdBy:
      'agent-platform images: tsc -p tsconfig.build.json; npm run build:ui; dist/, ui/dist/ and bin/',
    entries: async () => {
      const dist = await compileApp(ctx.repoRoot, staging);
      const ui = await buildUi(ctx.repoRoot, staging);
      return [
        ...(await walkTree(dist, '/app/dist')),
        ...(await walkTree(ui, UI_IMAGE_DIR)),
        ...(await walkTree(join(ctx.repoRoot, 'bin'), '/app/bin')),
        // `platform` on PATH, so `kubectl exec … -- platform ask "…"` works.
        { type: 'symlink', path: '/usr/local/bin/platform', target: '/app/bin/platform.js' },
      ];
    },
    cleanup: () => rm(staging, { recursive: true, force: true }),
  };
}

async function pauseSource(ctx: Context): Promise<LayerSource> {
  const binary = await ensurePause(ctx.cacheDir);
  const entries = await resolvePlan([{ kind: 'copy', from: binary, to: '/pause' }]);
  return {
    key: entriesKey(entries, ctx.epoch),
    createdBy: 'agent-platform images: gcc -static -Os hack/images/pause.c',
    entries: () => Promise.resolve(entries),
  };
}

const SOURCES: Record<LayerId, (ctx: Context) => Promise<LayerSource>> = {
  runtime: runtimeSource,
  deps: depsSource,
  app: appSource,
  pause: pauseSource,
};

async function buildLayer(id: LayerId, ctx: Context): Promise<BuiltLayer> {
  const started = performance.now();
  const source = await SOURCES[id](ctx);
  try {
    const cached = await cachedLayer(ctx.cacheDir, source.key);
    const stored =
      cached ??
      (await writeLayer(ctx.cacheDir, source.key, await source.entries(), {
        mtime: ctx.epoch,
        createdBy: source.createdBy,
      }));
    const seconds = (performance.now() - started) / 1000;
    const what = cached ? 'reused' : `built in ${seconds.toFixed(1)} s`;
    ctx.log(
      `layer ${id.padEnd(7)} ${stored.descriptor.digest.slice(0, 19)}  ${formatBytes(stored.descriptor.size)}` +
        ` (${formatBytes(stored.uncompressedSize)} uncompressed)  ${what}`,
    );
    return { ...stored, id, reused: cached !== undefined, seconds };
  } finally {
    await source.cleanup?.();
  }
}

function assemble(def: ImageDefinition, built: ReadonlyMap<LayerId, BuiltLayer>, epoch: number): BuiltImage {
  const layers = def.layers.map((id) => {
    const layer = built.get(id);
    if (!layer) throw new Error(`layer ${id} was not built`);
    return layer;
  });
  const config = imageConfig(def.config, layers, epoch);
  const manifest = imageManifest(config, layers);
  const sum = (f: (l: BuiltLayer) => number): number => layers.reduce((a, l) => a + f(l), 0);
  return {
    id: def.id,
    name: def.name,
    manifest,
    config,
    layers,
    size: manifest.descriptor.size + config.descriptor.size + sum((l) => l.descriptor.size),
    uncompressedSize: sum((l) => l.uncompressedSize),
  };
}

async function definitions(ctx: Context, only: readonly ImageId[]): Promise<ImageDefinition[]> {
  const pkg = JSON.parse(await readFile(join(ctx.repoRoot, 'package.json'), 'utf8')) as { version: string };
  const needsNode = only.some((id) => id !== 'pause');
  const nodeVersion = needsNode ? (await ensureNode24(cacheRoot())).version : '';
  const all = imageDefinitions({ version: pkg.version, nodeVersion });
  return only.map((id) => all[id]);
}

/** Builds the chosen images into an OCI layout; unchanged layers come from the cache. */
export async function buildImages(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const ctx: Context = {
    repoRoot: options.repoRoot ?? REPO_ROOT,
    cacheDir: options.cacheDir ?? imagesCacheDir(),
    epoch: options.epochSeconds ?? sourceDateEpoch(),
    log: options.log ?? (() => undefined),
  };
  const defs = await definitions(ctx, options.only ?? IMAGE_IDS);
  const built = new Map<LayerId, BuiltLayer>();
  for (const id of layersFor(defs)) built.set(id, await buildLayer(id, ctx));
  const images = defs.map((def) => assemble(def, built, ctx.epoch));
  const layoutDir = options.outDir ?? join(ctx.cacheDir, 'oci');
  await writeLayout(layoutDir, ctx.cacheDir, images);
  for (const image of images) {
    ctx.log(
      `image ${image.name}  ${image.manifest.descriptor.digest.slice(0, 19)}  ${formatBytes(image.size)} compressed,` +
        ` ${formatBytes(image.uncompressedSize)} uncompressed`,
    );
  }
  await pruneStore(ctx.cacheDir, KEEP_DAYS);
  await pruneDeps(ctx.cacheDir, KEEP_DAYS);
  return { layoutDir, images, seconds: (performance.now() - started) / 1000 };
}
