import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mountsUnder } from './cleanup.ts';
import { cniConfig, containerdConfig, kubeletConfig } from './configs.ts';
import { nodePaths } from './layout.ts';
import { kubeletLeftoverCommands } from './nft.ts';
import { CNI_PLUGINS, HOST_BINARIES, KUBE_BINARIES, nodeProblems, type HostFacts } from './preflight.ts';

const allThere = (): HostFacts => ({
  platform: 'linux',
  uid: 0,
  binaries: Object.fromEntries([...HOST_BINARIES, ...KUBE_BINARIES].map((b) => [b, `/usr/bin/${b}`])),
  cniPlugins: Object.fromEntries(CNI_PLUGINS.map((p) => [p, true])),
  kubeletPortInUse: false,
});

describe('node preflight', () => {
  it('has no problem when everything is there', () => {
    expect(nodeProblems(allThere())).toEqual([]);
  });
  it('names the one blocking reason first: not Linux, then not root', () => {
    expect(nodeProblems({ ...allThere(), platform: 'darwin' })).toEqual([
      'a node needs Linux (this is darwin)',
    ]);
    expect(nodeProblems({ ...allThere(), uid: 1000 })[0]).toMatch(/needs root/);
  });
  it('lists missing binaries with the command that brings them', () => {
    const f = allThere();
    f.binaries.containerd = undefined;
    f.binaries.kubelet = undefined;
    f.cniPlugins.bridge = false;
    f.kubeletPortInUse = true;
    const problems = nodeProblems(f);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/missing containerd: run hack\/prereqs.sh/);
    expect(problems[1]).toMatch(/missing kubelet: run npm run control-plane:build/);
    expect(problems[2]).toMatch(/CNI plugins bridge/);
    expect(problems[3]).toMatch(/10250 is in use/);
  });
});

describe('node configuration', () => {
  const p = nodePaths('/x/node', '/x/run');
  it('containerd: the settings this machine forces', () => {
    const toml = containerdConfig(p);
    expect(toml).toContain('restrict_oom_score_adj = true');
    expect(toml).toContain('SystemdCgroup = false');
    expect(toml).toContain('address = "/x/run/containerd/containerd.sock"');
    expect(toml).toContain('sandbox_image = "localhost/agent-platform/pause:3.10"');
  });
  it('CNI: a bridge without masquerade, addresses in the pod CIDR', () => {
    const conf = JSON.parse(cniConfig(p)) as { plugins: { type: string; ipMasq?: boolean; ipam?: object }[] };
    expect(conf.plugins[0]).toMatchObject({ type: 'bridge', ipMasq: false, isGateway: true });
    expect(JSON.stringify(conf.plugins[0]?.ipam)).toContain('10.88.0.0/16');
  });
  it('kubelet: cgroupfs, no swap check, images never collected', () => {
    const c = parse(kubeletConfig(p, { caCert: 'ca', cert: 'c', key: 'k' })) as Record<string, unknown>;
    expect(c).toMatchObject({
      cgroupDriver: 'cgroupfs',
      failSwapOn: false,
      imageGCHighThresholdPercent: 100,
    });
    expect(c.containerRuntimeEndpoint).toBe('unix:///x/run/containerd/containerd.sock');
  });
});

describe('cleanup planning', () => {
  it('finds mounts under the node dirs, deepest first', () => {
    const info = [
      '22 1 0:1 / / rw - ext4 /dev/vda rw',
      '30 22 0:2 / /x/node/containerd/a rw - overlay overlay rw',
      '31 30 0:3 / /x/node/containerd/a/b rw - tmpfs tmpfs rw',
      '32 22 0:4 / /x/nodeother rw - tmpfs tmpfs rw',
    ].join('\n');
    expect(mountsUnder(['/x/node'], info)).toEqual(['/x/node/containerd/a/b', '/x/node/containerd/a']);
  });
  it("removes kubelet's chains, the jumps to them, and tables left empty", () => {
    const ruleset = {
      nftables: [
        { table: { family: 'ip', name: 'filter' } },
        { chain: { family: 'ip', table: 'filter', name: 'KUBE-FIREWALL' } },
        { chain: { family: 'ip', table: 'filter', name: 'OUTPUT' } },
        {
          rule: { family: 'ip', table: 'filter', chain: 'KUBE-FIREWALL', handle: 5, expr: [{ drop: null }] },
        },
        {
          rule: {
            family: 'ip',
            table: 'filter',
            chain: 'OUTPUT',
            handle: 6,
            expr: [{ jump: { target: 'KUBE-FIREWALL' } }],
          },
        },
        { table: { family: 'ip', name: 'nat' } },
        { chain: { family: 'ip', table: 'nat', name: 'KUBE-KUBELET-CANARY' } },
        { chain: { family: 'ip', table: 'nat', name: 'POSTROUTING' } },
        {
          rule: { family: 'ip', table: 'nat', chain: 'POSTROUTING', handle: 9, expr: [{ masquerade: null }] },
        },
        { table: { family: 'inet', name: 'filter' } },
      ],
    };
    expect(kubeletLeftoverCommands(JSON.stringify(ruleset))).toEqual([
      ['delete', 'rule', 'ip', 'filter', 'OUTPUT', 'handle', '6'],
      ['flush', 'chain', 'ip', 'filter', 'KUBE-FIREWALL'],
      ['flush', 'chain', 'ip', 'nat', 'KUBE-KUBELET-CANARY'],
      ['delete', 'chain', 'ip', 'filter', 'KUBE-FIREWALL'],
      ['delete', 'chain', 'ip', 'nat', 'KUBE-KUBELET-CANARY'],
      // nat keeps someone else's masquerade rule, so only filter goes.
      ['delete', 'table', 'ip', 'filter'],
    ]);
  });
});

describe('node process restarts', () => {
  it('back off from 1 s, doubling to 30 s, and reset after a minute up', async () => {
    const { restartDelayMs } = await import('./supervise.ts');
    expect(restartDelayMs(undefined, 5)).toBe(1_000);
    expect(restartDelayMs(1_000, 5)).toBe(2_000);
    expect(restartDelayMs(16_000, 5)).toBe(30_000);
    expect(restartDelayMs(30_000, 5)).toBe(30_000);
    expect(restartDelayMs(30_000, 60_000)).toBe(1_000);
  });
});
