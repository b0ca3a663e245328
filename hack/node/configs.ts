// The node's configuration files, pure: containerd, the CNI network, kubelet
// and kube-proxy. Each setting that is here for a reason this machine forces
// says so (see docs/node.md).
import { stringify } from 'yaml';
import {
  BRIDGE,
  CNI_BIN_DIR,
  KUBELET_PORT,
  NODE_IP,
  NODE_NAME,
  PAUSE_IMAGE,
  POD_CIDR,
  type NodePaths,
} from './layout.ts';

export function containerdConfig(p: NodePaths, sandboxImage = PAUSE_IMAGE): string {
  const cri = 'plugins."io.containerd.grpc.v1.cri"';
  return [
    'version = 2',
    `root = ${JSON.stringify(p.containerdRoot)}`,
    `state = ${JSON.stringify(p.containerdState)}`,
    '[grpc]',
    `  address = ${JSON.stringify(p.containerdSocket)}`,
    '[ttrpc]',
    `  address = ${JSON.stringify(`${p.containerdSocket}.ttrpc`)}`,
    // Nothing else of containerd's listens: no metrics, no debug socket.
    '[debug]',
    `  address = ""`,
    `[${cri}]`,
    `  sandbox_image = ${JSON.stringify(sandboxImage)}`,
    // root here lacks CAP_SYS_RESOURCE: runc cannot lower oom_score_adj, and
    // every sandbox fails with "can't get final child's PID from pipe".
    '  restrict_oom_score_adj = true',
    '  enable_selinux = false',
    `[${cri}.containerd]`,
    '  snapshotter = "overlayfs"',
    '  default_runtime_name = "runc"',
    `[${cri}.containerd.runtimes.runc]`,
    '  runtime_type = "io.containerd.runc.v2"',
    `[${cri}.containerd.runtimes.runc.options]`,
    // PID 1 is not systemd: cgroupfs, as kubelet.
    '  SystemdCgroup = false',
    `[${cri}.cni]`,
    `  bin_dir = ${JSON.stringify(CNI_BIN_DIR)}`,
    `  conf_dir = ${JSON.stringify(p.cniConfDir)}`,
    '  max_conf_num = 1',
    '',
  ].join('\n');
}

/**
 * A bridge with host-local addresses. No masquerade and no portmap: pods only
 * talk to each other, Services and the host (the bridge address), so the
 * plugins leave no iptables rules on the host to clean up.
 */
export function cniConfig(p: NodePaths): string {
  return JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'platform',
      plugins: [
        {
          type: 'bridge',
          bridge: BRIDGE,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: POD_CIDR, gateway: NODE_IP }]],
            routes: [{ dst: '0.0.0.0/0' }],
            dataDir: p.cniIpamDir,
          },
        },
        { type: 'loopback' },
      ],
    },
    null,
    2,
  );
}

/**
 * kubelet's configuration. `clusterDns`: the nameservers pods get (with the
 * cluster's search path), as on any cluster with CoreDNS; without it pods use
 * the host's resolv.conf and Service names do not resolve.
 */
export function kubeletConfig(
  p: NodePaths,
  files: { caCert: string; cert: string; key: string },
  clusterDns: readonly string[] = [],
): string {
  return stringify({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    address: NODE_IP,
    port: KUBELET_PORT,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: 10248,
    tlsCertFile: files.cert,
    tlsPrivateKeyFile: files.key,
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: true },
      x509: { clientCAFile: files.caCert },
    },
    authorization: { mode: 'Webhook' },
    containerRuntimeEndpoint: `unix://${p.containerdSocket}`,
    // PID 1 is not systemd here; the hierarchy is cgroup v1.
    cgroupDriver: 'cgroupfs',
    failSwapOn: false,
    // The node agent itself may not lower its own OOM score here.
    oomScoreAdj: 0,
    // Images are imported, never pulled: nothing may garbage-collect them.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '2%', 'imagefs.available': '2%' },
    serializeImagePulls: false,
    registerNode: true,
    clusterDomain: 'cluster.local',
    ...(clusterDns.length > 0 ? { clusterDNS: [...clusterDns] } : {}),
    resolvConf: '/etc/resolv.conf',
    localStorageCapacityIsolation: true,
    nodeStatusReportFrequency: '10s',
    nodeStatusUpdateFrequency: '5s',
    syncFrequency: '10s',
    fileCheckFrequency: '10s',
    maxPods: 110,
    podPidsLimit: 4096,
    shutdownGracePeriod: '0s',
  });
}

export function kubeletArgs(p: NodePaths, kubeconfig: string): string[] {
  return [
    `--config=${p.kubeletConfig}`,
    `--kubeconfig=${kubeconfig}`,
    `--root-dir=${p.kubeletRoot}`,
    `--hostname-override=${NODE_NAME}`,
    `--node-ip=${NODE_IP}`,
    '--v=1',
  ];
}

export function kubeProxyConfig(kubeconfig: string): string {
  return stringify({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    mode: 'nftables',
    clusterCIDR: POD_CIDR,
    hostnameOverride: NODE_NAME,
    clientConnection: { kubeconfig },
    healthzBindAddress: '127.0.0.1:10256',
    metricsBindAddress: '127.0.0.1:10249',
    // No conntrack sysctl writes: the node's kernel settings are not ours to change.
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  });
}

export function schedulerArgs(kubeconfig: string): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    '--v=1',
  ];
}
