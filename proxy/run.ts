// `platform run proxy`: the credential proxy sidecar's egress core. Reads its
// settings, listens on one port for transparent TLS (by SNI), explicit
// CONNECT and transparent HTTP (by Host), serves its own /healthz, /readyz
// and /metrics there, and on SIGTERM drains open tunnels before it exits.
import { networkInterfaces } from 'node:os';
import { newRegistry } from '../base/ops-server.ts';
import type { RoleRunner } from '../base/role.ts';
import { loadProxySettings } from './config.ts';
import { proxyMetrics } from './metrics.ts';
import { modelGuard } from './guard.ts';
import { recordNothing } from './policy.ts';
import { startProxyServer } from './server.ts';

/** The pod's own addresses: Host or SNI naming one of them on the proxy port is the proxy itself. */
export function ownAddresses(podIp: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) out.add(a.address.toLowerCase());
  if (podIp) out.add(podIp.toLowerCase());
  return out;
}

export const runProxy: RoleRunner = async (context) => {
  const s = loadProxySettings(context.env, context.flags);
  const log = context.log;
  const registry = newRegistry('proxy');
  const proxy = await startProxyServer({
    host: s.host,
    port: s.port,
    maxConnections: s.maxConnections,
    log,
    metrics: proxyMetrics(registry),
    // The egress issue adds policy and approvals behind this guard, and the access log to the Verifier.
    policy: modelGuard({ modelCidrs: s.modelCidrs, modelPorts: s.modelPorts.map(Number) }),
    recorder: recordNothing,
    registry,
    route: { plainPort: s.httpPort, listenPort: s.port, ownAddresses: ownAddresses(s.podIp) },
    tlsPort: s.tlsPort,
    connectTimeoutMs: s.connectTimeout,
    idleTimeoutMs: s.idleTimeout,
    headTimeoutMs: s.headTimeout,
    maxHeadBytes: s.maxHeadBytes,
  });
  log.info(
    { port: proxy.port, agentId: s.agentId, tlsPort: s.tlsPort, httpPort: s.httpPort },
    'proxy listening (transparent TLS by SNI, CONNECT, transparent HTTP by Host)',
  );
  context.lifecycle.onStop('proxy listener', () => proxy.stop(s.drainTimeout));
};
