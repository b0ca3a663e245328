// The images built without Docker, for real: the system tar reads the layers,
// a private containerd imports them (and skips them the second time), its CRI
// plugin lists them at once, and runc runs them: Node 24, the app as user 1000, the init container's
// iptables script in a fresh network namespace, and pause until SIGTERM. A
// source change rebuilds the application layer only.
//
// The first run on a machine installs Node 24 and the production
// dependencies into the cache (~/.cache/agent-platform); later runs reuse them.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildImages,
  imagesCacheDir,
  type BuildResult,
  type BuiltImage,
} from '../../hack/images/build-images.ts';
import { importImages, type ImportableImage } from '../../hack/images/containerd.ts';
import { imageConfig, imageManifest, type ContainerConfig } from '../../hack/images/oci.ts';
import { SIDECAR_UID } from '../../webhooks/constants.ts';
import { redirectScript } from '../../webhooks/mutate/redirect.ts';
import { startContainerd, type PrivateContainerd } from './fixtures/containerd.ts';
import { REPO_ROOT } from './fixtures/loopback.ts';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'pf-images-'));
let ctd: PrivateContainerd;
let build: BuildResult;
const log = (line: string): void => console.log(`  ${line}`);

const image = (id: string): BuiltImage => {
  const found = build.images.find((i) => i.id === id);
  if (!found) throw new Error(`no image ${id}`);
  return found;
};
const layer = (img: BuiltImage, id: string): string => {
  const found = img.layers.find((l) => l.id === id);
  if (!found) throw new Error(`no layer ${id}`);
  return join(build.layoutDir, 'blobs', 'sha256', found.descriptor.digest.slice(7));
};

/** `tar -tvzf` of a layer blob: one line per entry. */
async function listing(blob: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tvzf', blob], { maxBuffer: 64 << 20 });
  return stdout.trim().split('\n');
}

const uniqueId = (what: string): string => `pf-${what}-${randomBytes(3).toString('hex')}`;

/** `ctr run --rm` in a fresh network namespace; resolves with stdout. */
async function ctrRun(
  name: string,
  command: readonly string[],
  flags: readonly string[] = [],
): Promise<string> {
  const runArgs = ['run', '--rm', '--snapshotter', 'overlayfs', ...ctd.runFlags, ...flags];
  return ctd.ctr([...runArgs, name, uniqueId('run'), ...command]);
}

/** The same image with another user, as a pod's securityContext.runAsUser would run it. */
function asUser(img: BuiltImage, name: string, user: string): ImportableImage {
  const config = JSON.parse(img.config.bytes.toString()) as { config: ContainerConfig };
  const next = imageConfig({ ...config.config, User: user }, img.layers, 0);
  return { name, config: next, manifest: imageManifest(next, img.layers), layers: img.layers };
}

beforeAll(async () => {
  build = await buildImages({ outDir: join(work, 'oci'), log });
  ctd = await startContainerd();
  await importImages(build, { address: ctd.address, log });
}, 900_000);

afterAll(async () => {
  await ctd?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('images built without Docker', () => {
  it('holds Node, sh, iptables, their libraries and /etc in the runtime layer', async () => {
    const lines = await listing(layer(image('platform'), 'runtime'));
    const has = (re: RegExp): void => expect(lines.some((l) => re.test(l))).toBe(true);
    has(/^-rwxr-xr-x 0\/0 .* 1970-01-01 00:00 usr\/local\/bin\/node$/);
    has(/ lib64\/ld-linux-x86-64\.so\.2$/);
    has(/ lib\/x86_64-linux-gnu\/libc\.so\.6$/);
    has(/ lib\/x86_64-linux-gnu\/libstdc\+\+\.so\.6$/);
    has(/^l.* bin\/sh -> dash$/);
    for (const name of ['iptables', 'ip6tables', 'iptables-nft'])
      has(new RegExp(`^l.* usr/sbin/${name} -> xtables-nft-multi$`));
    for (const ext of [
      'libxt_owner',
      'libxt_tcp',
      'libxt_REDIRECT',
      'libxt_standard',
      'libxt_comment',
      'libxt_NAT', // REDIRECT for both families (a symlink to it)
    ])
      has(new RegExp(` usr/lib/x86_64-linux-gnu/xtables/${ext}\\.so( ->.*)?$`));
    has(/ etc\/ssl\/certs\/ca-certificates\.crt$/);
    has(/^drwxrwxrwt 0\/0 .* tmp\/$/);
    has(/^drwxr-xr-x 1000\/1000 .* home\/node\/$/);
    expect(lines.every((l) => l.includes(' 1970-01-01 00:00 '))).toBe(true);
    const { stdout } = await run('tar', ['-xOzf', layer(image('platform'), 'runtime'), 'etc/passwd']);
    expect(stdout).toMatch(/^node:x:1000:1000:/m);
    expect(stdout).toMatch(/^platform-sidecar:x:1337:1337:/m);
  });

  it('holds node_modules and package.json in the deps layer, dist and bin in the app layer', async () => {
    const deps = await listing(layer(image('platform'), 'deps'));
    expect(deps.some((l) => l.endsWith(' app/package.json'))).toBe(true);
    expect(deps.some((l) => l.endsWith(' app/node_modules/koa/package.json'))).toBe(true);
    expect(deps.some((l) => / app\/node_modules\/(typescript|vitest|eslint)\//.test(l))).toBe(false);
    const app = await listing(layer(image('platform'), 'app'));
    expect(app.some((l) => l.endsWith(' app/dist/operator/main.js'))).toBe(true);
    expect(app.some((l) => /^-rwxr-xr-x .* app\/bin\/platform\.js$/.test(l))).toBe(true);
    expect(app.some((l) => l.includes('.test.'))).toBe(false);
    expect(await listing(layer(image('pause'), 'pause'))).toEqual([
      expect.stringMatching(/^-rwxr-xr-x 0\/0 .* pause$/),
    ]);
  });

  it('stores the three layers once for the platform and agent-runtime images', () => {
    const digests = (img: BuiltImage): string[] => img.layers.map((l) => l.descriptor.digest);
    expect(digests(image('agent-runtime'))).toEqual(digests(image('platform')));
    expect(image('agent-runtime').manifest.descriptor.digest).not.toBe(
      image('platform').manifest.descriptor.digest,
    );
  });

  it('is in containerd under its names, and a second import skips every image', async () => {
    const listed = await ctd.ctr(['images', 'ls']);
    for (const img of build.images) expect(listed).toContain(`${img.name} `);
    const again = await importImages(build, { address: ctd.address });
    expect(again.map((i) => i.imported)).toEqual([false, false, false]);
  });

  it('is listed by the CRI plugin (what the kubelet asks) right after the import', async () => {
    const listed = (await ctd.criListImages()).toString('latin1');
    for (const img of build.images) {
      expect(listed).toContain(img.name);
      expect(listed).toContain(img.config.descriptor.digest); // the CRI image id
    }
  });

  it('runs Node 24 from the platform image', async () => {
    expect(await ctrRun(image('platform').name, ['/usr/local/bin/node', '--version'])).toMatch(
      /^v24\.\d+\.\d+\n$/,
    );
  });

  it('runs the platform binary from the app layer as user 1000', async () => {
    const name = image('platform').name;
    expect(await ctrRun(name, ['/app/bin/platform.js', '--help'])).toContain('Usage: platform');
    const who = await ctrRun(name, ['node', '-e', 'console.log(process.getuid(), process.cwd())']);
    expect(who.trim()).toBe('1000 /app');
  });

  it('installs the redirect rules in a fresh network namespace, as the init container does', async () => {
    const root = asUser(image('platform'), 'localhost/agent-platform-test/platform-root:dev', '0:0');
    await importImages({ layoutDir: build.layoutDir, images: [root] }, { address: ctd.address });
    const script = redirectScript({
      gatewayPort: 8099,
      proxyPort: 8088,
      sidecarUid: SIDECAR_UID,
      modelCidrs: ['10.200.0.0/24'],
      modelPorts: [11434],
    });
    const hostBefore = (await run('iptables', ['-t', 'nat', '-S'])).stdout;
    // The pod's securityContext: drop everything, add NET_ADMIN and NET_RAW.
    const caps = ['--cap-drop', 'CAP_ALL', '--cap-add', 'CAP_NET_ADMIN', '--cap-add', 'CAP_NET_RAW'];
    const check = 'iptables -t nat -L -n >/dev/null && iptables -t nat -S && ip6tables -t nat -S';
    const out = await ctrRun(root.name, ['/bin/sh', '-c', `${script}\n${check}`], caps);
    expect(out).toContain(`-A PLATFORM_OUTPUT -m owner --uid-owner ${SIDECAR_UID} -j RETURN`);
    expect(out).toContain('-A PLATFORM_OUTPUT -d 10.200.0.0/24 -p tcp -j REDIRECT --to-ports 8099');
    expect(out).toContain('-A PLATFORM_OUTPUT -d ::1/128 -j RETURN');
    expect(out.match(/-A OUTPUT -p tcp -j PLATFORM_OUTPUT/g)).toHaveLength(2);
    expect((await run('iptables', ['-t', 'nat', '-S'])).stdout).toBe(hostBefore);
  });

  it('runs pause as 65535 until SIGTERM, which it answers with exit 0', async () => {
    const id = uniqueId('pause');
    const args = ctd.ctrArgs([
      'run',
      '--rm',
      '--snapshotter',
      'overlayfs',
      ...ctd.runFlags,
      image('pause').name,
      id,
    ]);
    const child = spawn('ctr', args, { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let pid = 0;
    for (let i = 0; i < 100 && !pid; i++) {
      const row = (await ctd.ctr(['task', 'ls'])).split('\n').find((l) => l.startsWith(`${id} `));
      if (row?.includes('RUNNING')) pid = Number(row.split(/\s+/)[1]);
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(pid).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(/^Uid:\s+65535\s/m);
    await ctd.ctr(['task', 'kill', '--signal', 'SIGTERM', id]);
    expect(await exited).toBe(0);
  });
});

describe('rebuilding after a source change', () => {
  it('reuses the runtime and deps layers and rebuilds only the app layer', async () => {
    const repo = join(work, 'repo');
    const tsBuild = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.build.json'), 'utf8')) as {
      include: string[];
    };
    for (const path of [
      ...tsBuild.include,
      'bin',
      'ui',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ])
      cpSync(join(REPO_ROOT, path), join(repo, path), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(repo, 'node_modules'));
    const options = { repoRoot: repo, outDir: join(work, 'oci-copy'), only: ['platform'] as const, log };
    const before = await buildImages(options);
    expect(before.images[0]?.layers.map((l) => l.reused)).toEqual([true, true, true]);
    appendFileSync(
      join(repo, 'operator', 'main.ts'),
      // New output on every run: a change seen before would come from the cache.
      `\nexport const _changed = '${randomBytes(8).toString('hex')}';\n`,
    );
    const after = await buildImages(options);
    const [b, a] = [before.images[0]!.layers, after.images[0]!.layers];
    // The changed layer is of no use to anyone else: drop its blob (the cache then misses).
    rmSync(join(imagesCacheDir(), 'blobs', 'sha256', a[2]!.descriptor.digest.slice(7)), { force: true });
    expect(a.map((l) => l.reused)).toEqual([true, true, false]);
    expect(a.map((l) => l.descriptor.digest === b[a.indexOf(l)]?.descriptor.digest)).toEqual([
      true,
      true,
      false,
    ]);
  }, 300_000);
});
