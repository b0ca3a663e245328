// `platform run proxy`: the credential proxy sidecar's egress core. Reads its
// settings, listens on one port for transparent TLS (by SNI), explicit
// CONNECT and transparent HTTP (by Host), serves its own /healthz, /readyz
// and /metrics there, and on SIGTERM drains open tunnels before it exits.
import { networkInterfaces } from 'node:os';
import { newRegistry } from '../base/ops-server.ts';
import { Counter, type Registry } from 'prom-client';
import type { RoleContext, RoleRunner } from '../base/role.ts';
import { loadProxySettings, type ProxySettings } from './config.ts';
import { proxyMetrics } from './metrics.ts';
import { modelGuard } from './guard.ts';
import { recordNothing, type EgressPolicy } from './policy.ts';
import { ManifestPolicy, verifierManifestFetch } from './access-manifest.ts';
import { startProxyServer } from './server.ts';

/** The pod's own addresses: Host or SNI naming one of them on the proxy port is the proxy itself. */
export function ownAddresses(podIp: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) out.add(a.address.toLowerCase());
  if (podIp) out.add(podIp.toLowerCase());
  return out;
}

/**
 * The model guard, behind the network domain of the agent's Access Manifest
 * when there is a Verifier to read it from. The egress issue adds access and
 * approvals here, and the access log to the Verifier.
 */
async function egressPolicy(
  s: ProxySettings,
  context: RoleContext,
  registry: Registry,
): Promise<EgressPolicy> {
  const guard = modelGuard({ modelCidrs: s.modelCidrs, modelPorts: s.modelPorts.map(Number) });
  if (!s.verifierUrl) {
    context.log.warn({}, "no PLATFORM_VERIFIER_URL: the Access Manifest's network domain is not enforced");
    return guard;
  }
  const refreshes = new Counter({
    name: 'platform_proxy_manifest_refreshes_total',
    help: "Reads of the agent's Access Manifest from the Verifier, by result",
    labelNames: ['result'],
    registers: [registry],
  });
  const policy = new ManifestPolicy(guard, {
    fetch: verifierManifestFetch({ verifierUrl: s.verifierUrl, agentId: s.agentId, apiKey: s.apiKey }),
    log: context.log,
    onRefresh: (ok) => refreshes.inc({ result: ok ? 'ok' : 'error' }),
  });
  // Not awaited: listening does not wait for the Verifier; a decision before the first read waits for it.
  void policy.start(s.manifestRefresh);
  context.lifecycle.onStop('access manifest refresh', () => policy.stop());
  return policy;
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
    policy: await egressPolicy(s, context, registry),
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
