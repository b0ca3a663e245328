// What a run of the local cluster could leave on the host, listed: the test of
// `npm start` asserts this is empty after a stop, and a person can run it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { REPO_ROOT } from '../control-plane/paths.ts';
import { commandLine, pidsMatching } from '../control-plane/process-group.ts';
import { kubepodsCgroups, mountsUnder } from './cleanup.ts';
import { BRIDGE, KUBELET_FIXED_PATHS, NETNS_DIR, nodePaths } from './layout.ts';

const OUR_PROCESSES = [
  /agent-platform\/k8s-[\d.]+\/kube/,
  /containerd --config=\/var\/lib\/agent-platform/,
  /containerd-shim.*\/run\/agent-platform/,
  new RegExp(`${REPO_ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/bin/platform\\.js run `),
  /\betcd\b.*platform-cp-/,
];

function processLeftovers(): string[] {
  return OUR_PROCESSES.flatMap((re) => pidsMatching(re)).map(
    (pid) => `process ${pid}: ${commandLine(pid).trim().slice(0, 120)}`,
  );
}

function nftLeftovers(): string[] {
  const r = spawnSync('nft', ['list', 'ruleset'], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  const found: string[] = [];
  if (/table ip6? kube-proxy/.test(r.stdout)) found.push('nft table kube-proxy');
  if (/chain KUBE-/.test(r.stdout)) found.push('nft chains KUBE-*');
  return found;
}

/** Everything of ours still on the host; empty after a clean stop. */
export function nodeLeftovers(): string[] {
  const p = nodePaths();
  const mounts = mountsUnder(
    [p.root, p.containerdState, ...KUBELET_FIXED_PATHS],
    readFileSync('/proc/self/mountinfo', 'utf8'),
  );
  const netns = existsSync(NETNS_DIR) ? readdirSync(NETNS_DIR).filter((n) => n.startsWith('cni-')) : [];
  return [
    ...processLeftovers(),
    ...mounts.map((m) => `mount ${m}`),
    ...kubepodsCgroups().map((c) => `cgroup ${c}`),
    ...netns.map((n) => `netns ${n}`),
    ...(existsSync(`/sys/class/net/${BRIDGE}`) ? [`bridge ${BRIDGE}`] : []),
    ...nftLeftovers(),
    ...(existsSync(p.root) && readdirSync(p.root).length > 0 ? [`files in ${p.root}`] : []),
    ...(existsSync(p.ownerFile) ? [`owner file ${p.ownerFile}`] : []),
  ];
}
