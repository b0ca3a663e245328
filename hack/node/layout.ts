// Where the local node lives and how its network is laid out. One node per
// machine: containerd, kubelet and kube-proxy own host-wide things (cgroups,
// netns, nft tables, a bridge), so the paths are fixed and a lock file says
// which run owns them.
import { join } from 'node:path';

export const NODE_NAME = 'platform-node';
/** The host side of the pod network; pods reach host processes (API, model) here. */
export const BRIDGE = 'platform0';
export const POD_CIDR = '10.88.0.0/16';
export const NODE_IP = '10.88.0.1';
export const NODE_IP_PREFIX = 16;
export const SERVICE_CIDR = '10.0.0.0/24';
export const KUBELET_PORT = 10250;

export const PAUSE_IMAGE = 'localhost/agent-platform/pause:3.10';

export interface NodePaths {
  /** Everything on disk that one run writes: removed on stop. */
  root: string;
  containerdRoot: string;
  containerdState: string;
  containerdSocket: string;
  containerdConfig: string;
  cniConfDir: string;
  cniIpamDir: string;
  kubeletRoot: string;
  kubeletConfig: string;
  kubeProxyConfig: string;
  certDir: string;
  /** Managed process records (pid files), as the control plane keeps them. */
  stateDir: string;
  /** Who owns the node now: the pid of the Node process that started it. */
  ownerFile: string;
  logDir: string;
}

export function nodePaths(base = '/var/lib/agent-platform/node', run = '/run/agent-platform'): NodePaths {
  return {
    root: base,
    containerdRoot: join(base, 'containerd'),
    containerdState: join(run, 'containerd'),
    containerdSocket: join(run, 'containerd', 'containerd.sock'),
    containerdConfig: join(base, 'containerd.toml'),
    cniConfDir: join(base, 'cni', 'net.d'),
    cniIpamDir: join(base, 'cni', 'ipam'),
    kubeletRoot: join(base, 'kubelet'),
    kubeletConfig: join(base, 'kubelet.yaml'),
    kubeProxyConfig: join(base, 'kube-proxy.yaml'),
    certDir: join(base, 'pki'),
    stateDir: join(run, 'processes'),
    ownerFile: join(run, 'node.owner'),
    logDir: join(base, 'logs'),
  };
}

/**
 * Paths kubelet writes outside its root dir (fixed in its code). Removed on
 * a clean stop so the next run starts clean.
 */
export const KUBELET_FIXED_PATHS = [
  '/var/lib/kubelet/device-plugins',
  '/var/log/containers',
  '/var/log/pods',
  '/usr/libexec/kubernetes',
] as const;

/** The cgroup every pod lives under (cgroupfs driver), in each v1 hierarchy. */
export const KUBEPODS_CGROUP = 'kubepods';
/** Where containerd 1.6 pins pod network namespaces. */
export const NETNS_DIR = '/run/netns';
export const CNI_BIN_DIR = '/usr/lib/cni';
