// The local node's cluster DNS, as CoreDNS serves it on any cluster: pods
// resolve `<service>.<namespace>.svc.cluster.local` (and, through their search
// path, `<service>.<namespace>.svc`) to the Service's ClusterIP. A UDP server
// on the bridge address that kubelet names as the pods' nameserver; it reads
// Services from the apiserver (cached a few seconds) and asks the host's
// resolver for names outside the cluster. Only what an in-cluster install
// needs: ClusterIP Services, A records.
import { createSocket, type Socket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { k8s, loadKubeConfig } from '../../base/kube.ts';
import {
  CLASS_IN,
  RCODE,
  TYPE_A,
  dnsError,
  dnsResponse,
  parseDnsQuery,
  serviceOfName,
  type DnsAnswer,
  type ServiceName,
} from './dns.ts';

export interface ClusterDns {
  address: string;
  port: number;
  close(): Promise<void>;
}

export interface ClusterDnsOptions {
  address: string;
  port?: number;
  kubeconfigPath: string;
  domain?: string;
  log?: (line: string) => void;
}

const CACHE_MS = 3_000;

/** ClusterIP lookups, each remembered for a few seconds (a pod resolves the Verifier on every call). */
function serviceLookup(kubeconfigPath: string): (s: ServiceName) => Promise<DnsAnswer> {
  const core = loadKubeConfig(kubeconfigPath).makeApiClient(k8s.CoreV1Api);
  const cache = new Map<string, { at: number; answer: DnsAnswer }>();
  return async (s) => {
    const key = `${s.namespace}/${s.name}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.answer;
    const answer = await core
      .readNamespacedService({ name: s.name, namespace: s.namespace })
      .then((svc): DnsAnswer => {
        const ip = svc.spec?.clusterIP;
        return ip && ip !== 'None' ? { rcode: RCODE.ok, addresses: [ip] } : { rcode: RCODE.nameError };
      })
      .catch((err: unknown): DnsAnswer => {
        const code = (err as { code?: number }).code;
        return { rcode: code === 404 ? RCODE.nameError : RCODE.serverFailure };
      });
    cache.set(key, { at: Date.now(), answer });
    return answer;
  };
}

/** Names outside the cluster: the host's resolver (A only). */
async function hostLookup(resolver: Resolver, name: string, type: number): Promise<DnsAnswer> {
  if (type !== TYPE_A) return { rcode: RCODE.ok };
  return resolver
    .resolve4(name)
    .then((addresses): DnsAnswer => ({ rcode: RCODE.ok, addresses }))
    .catch((): DnsAnswer => ({ rcode: RCODE.nameError }));
}

export async function startClusterDns(o: ClusterDnsOptions): Promise<ClusterDns> {
  const port = o.port ?? 53;
  const lookupService = serviceLookup(o.kubeconfigPath);
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  const answer = async (name: string, type: number): Promise<DnsAnswer> => {
    const service = serviceOfName(name, o.domain);
    if (service === undefined) return hostLookup(resolver, name, type);
    if (service === null) return { rcode: RCODE.nameError };
    return lookupService(service);
  };
  const socket: Socket = createSocket('udp4');
  socket.on('message', (msg, peer) => {
    const q = parseDnsQuery(msg);
    const reply = (out: Buffer | undefined): void => {
      if (out) socket.send(out, peer.port, peer.address);
    };
    if (q instanceof Error) return reply(dnsError(msg, RCODE.formErr));
    if (q.class !== CLASS_IN) return reply(dnsResponse(msg, q, { rcode: RCODE.notImplemented }));
    answer(q.name, q.type).then(
      (a) => reply(dnsResponse(msg, q, a)),
      () => reply(dnsResponse(msg, q, { rcode: RCODE.serverFailure })),
    );
  });
  socket.on('error', (err) => o.log?.(`cluster DNS: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, o.address, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return {
    address: o.address,
    port,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
