import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finalStage } from '../../auditors/conformance/dockerfile.ts';
import { IMAGE_NAME, imageDefinitions, layersFor, parseImageIds } from './definitions.ts';
import { UI_IMAGE_DIR } from './inputs.ts';
import { NODE_PURPOSE } from '../architecture/graph.ts';
import { group, NSSWITCH, parseLdd, passwd, runtimePlan, XTABLES_NAMES, type PlanItem } from './rootfs.ts';

const dockerfile = readFileSync(join(import.meta.dirname, '..', '..', 'Dockerfile'), 'utf8');
const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
const defs = imageDefinitions({ version: '0.1.0', nodeVersion: '24.1.0' });

describe('image definitions', () => {
  it('give the platform image the Dockerfile final stage config', () => {
    const stage = finalStage(dockerfile);
    const config = defs.platform.config;
    expect(config.Labels).toEqual(stage.labels);
    expect(config.User).toBe(stage.user);
    expect(config.Entrypoint).toEqual(JSON.parse(stage.entrypoint ?? 'null'));
    expect(config.Cmd).toEqual(JSON.parse(/^CMD (.*)$/m.exec(lastStage)?.[1] ?? 'null'));
    expect(config.WorkingDir).toBe(/^WORKDIR (\S+)$/m.exec(lastStage)?.[1]);
    expect(config.Env).toContain(/^ENV (\S+)$/m.exec(lastStage)?.[1]);
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual([`${/^EXPOSE (\d+)$/m.exec(lastStage)?.[1]}/tcp`]);
  });

  it('give the agent runtime the same layers and user with its own command and title', () => {
    const runtime = defs['agent-runtime'];
    expect(runtime.layers).toEqual(defs.platform.layers);
    expect(runtime.config.User).toBe(defs.platform.config.User);
    expect(runtime.config.Cmd).toEqual(['run', 'agent']);
    expect(runtime.config.Labels?.['org.opencontainers.image.title']).toBe('agent-platform-agent-runtime');
  });

  it('run pause as 65535 from a single layer', () => {
    expect(defs.pause).toMatchObject({ name: IMAGE_NAME.pause, layers: ['pause'] });
    expect(defs.pause.config).toMatchObject({ User: '65535:65535', Entrypoint: ['/pause'] });
  });

  it('order layers bottom to top and share them between images', () => {
    expect(layersFor([defs.pause, defs.platform])).toEqual(['runtime', 'deps', 'app', 'pause']);
    expect(layersFor([defs['agent-runtime']])).toEqual(['runtime', 'deps', 'app']);
  });

  it('parse --only', () => {
    expect(parseImageIds('pause, platform')).toEqual(['platform', 'pause']);
    expect(() => parseImageIds('platform,docker')).toThrow(/--only takes/);
    expect(() => parseImageIds('')).toThrow(/--only takes/);
  });
});

const LDD = `
\tlinux-vdso.so.1 (0x00007ffd5b1e0000)
\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x00007f0a1c000000)
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0a1be1e000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f0a1c382000)
`;

describe('runtime layer plan', () => {
  it('takes every library from ldd, loader included, vDSO excluded', () => {
    expect(parseLdd(LDD)).toEqual([
      '/lib/x86_64-linux-gnu/libstdc++.so.6',
      '/lib/x86_64-linux-gnu/libc.so.6',
      '/lib64/ld-linux-x86-64.so.2',
    ]);
    expect(parseLdd('\tnot a dynamic executable\n')).toEqual([]);
    expect(() => parseLdd('\tlibfoo.so.1 => not found\n', 'node')).toThrow(/node: ldd cannot find libfoo/);
  });

  const plan = runtimePlan({ node: '/cache/node', libraries: parseLdd(LDD) });
  const to = (item: PlanItem): string => (item.kind === 'entry' ? item.entry.path : item.to);
  const at = (path: string): PlanItem | undefined => plan.find((i) => to(i) === path);

  it('puts node, sh and the iptables names where the init script finds them', () => {
    expect(at('/usr/local/bin/node')).toEqual({
      kind: 'copy',
      from: '/cache/node',
      to: '/usr/local/bin/node',
    });
    expect(at('/bin/sh')).toMatchObject({ entry: { type: 'symlink', target: 'dash' } });
    for (const name of XTABLES_NAMES)
      expect(at(`/usr/sbin/${name}`)).toMatchObject({
        entry: { type: 'symlink', target: 'xtables-nft-multi' },
      });
    expect(at('/usr/lib/x86_64-linux-gnu/xtables')).toMatchObject({ kind: 'tree' });
  });

  it('keeps the libraries at the paths ldd found them', () => {
    expect(at('/lib64/ld-linux-x86-64.so.2')).toMatchObject({
      kind: 'copy',
      from: '/lib64/ld-linux-x86-64.so.2',
    });
    expect(at('/lib/x86_64-linux-gnu/libc.so.6')).toMatchObject({ kind: 'copy' });
  });

  it('has the users, a sticky /tmp and host lookups through files then DNS', () => {
    expect(passwd()).toContain('node:x:1000:1000:');
    expect(passwd()).toContain('platform-sidecar:x:1337:1337:');
    expect(group().split('\n')[0]).toBe('root:x:0:');
    expect(NSSWITCH).toContain('hosts: files dns');
    expect(at('/tmp')).toMatchObject({ entry: { type: 'dir', mode: 0o1777 } });
    expect(at('/home/node')).toMatchObject({ entry: { uid: 1000, gid: 1000 } });
  });
});

describe('the image compiles every production folder', () => {
  it('tsconfig.build.json includes each top-level folder of the architecture map but hack and ui', () => {
    const config = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'tsconfig.build.json'), 'utf8'),
    ) as { include: string[] };
    // ui/ is bundled by Vite, not compiled by tsc (the test below keeps its bundle in the image).
    const folders = Object.keys(NODE_PURPOSE).filter((n) => !n.includes('/') && n !== 'hack' && n !== 'ui');
    expect(folders.filter((f) => !config.include.includes(f))).toEqual([]);
  });
});

describe('the image serves the management UI', () => {
  it('builds the bundle where the Dockerfile copies it, beside /app/package.json', () => {
    const build = dockerfile.slice(0, dockerfile.lastIndexOf('\nFROM '));
    expect(build).toMatch(/^COPY ui \.\/ui$/m);
    expect(build.indexOf('RUN npm run build:ui')).toBeGreaterThan(build.indexOf('RUN npm ci'));
    expect(build.indexOf('RUN npm run build:ui')).toBeLessThan(build.indexOf('npm prune --omit=dev'));
    const copy = /^COPY --from=build \S+ \/src\/ui\/dist (\S+)$/m.exec(lastStage)?.[1];
    const workdir = /^WORKDIR (\S+)$/m.exec(lastStage)?.[1];
    expect(join(workdir ?? '', copy ?? '')).toBe(UI_IMAGE_DIR);
    expect(lastStage).toMatch(/^COPY --from=build \S+ \/src\/package\.json \.\/package\.json$/m);
  });
});
