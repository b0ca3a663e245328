// `platform run proxy`: the credential proxy sidecar. Reads its settings,
// listens on one port for transparent TLS (by SNI), explicit CONNECT and
// transparent HTTP (by Host), serves its own /healthz, /readyz and /metrics
// there, and on SIGTERM drains open tunnels before it exits. With a Verifier
// it also runs the request path (access, approval, injection, record; see
// proxy/egress/) and the MCP gateway (port 8100).
import { networkInterfaces } from 'node:os';
import { newRegistry } from '../base/ops-server.ts';
import { Counter, type Registry } from 'prom-client';
import type { RoleContext, RoleRunner } from '../base/role.ts';
import { loadProxySettings, type ProxySettings } from './config.ts';
import { proxyMetrics } from './metrics.ts';
import { modelGuard } from './guard.ts';
import { recordNothing, type AccessRecorder, type EgressPolicy } from './policy.ts';
import { ManifestPolicy, verifierManifestFetch } from './access-manifest.ts';
import { startProxyServer, type ProxyServerOptions } from './server.ts';
import { originalDestination } from './original-dst.ts';
import { accessSinkMetrics, HttpAccessSink } from './egress/access-sink.ts';
import { createInjector } from './egress/injector.ts';
import { matchRule } from './egress/rule-match.ts';
import { setupEgress } from './egress/setup.ts';
import { cedarTunnelPolicy, tunnelRecorder } from './egress/tunnel-access.ts';
import { startMcpGatewayFromEnv } from './mcp-gateway/start.ts';
import type { RouteOptions } from './route.ts';

/** The pod's own addresses: Host or SNI naming one of them on the proxy port is the proxy itself. */
export function ownAddresses(podIp: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) out.add(a.address.toLowerCase());
  if (podIp) out.add(podIp.toLowerCase());
  return out;
}

/** The model guard behind the network domain of the agent's Access Manifest, read from the Verifier. */
function manifestPolicy(
  s: ProxySettings & { verifierUrl: string },
  context: RoleContext,
  registry: Registry,
): ManifestPolicy {
  const guard = modelGuard({ modelCidrs: s.modelCidrs, modelPorts: s.modelPorts.map(Number) });
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

interface Egress {
  policy: EgressPolicy;
  recorder: AccessRecorder;
  l7?: ProxyServerOptions['l7'];
}

/** Everything the Verifier enables: the manifest, the request path, the data-access log and the MCP gateway. */
async function egressWithVerifier(
  s: ProxySettings & { verifierUrl: string },
  context: RoleContext,
  registry: Registry,
  route: RouteOptions,
): Promise<Egress> {
  const network = manifestPolicy(s, context, registry);
  const sink = new HttpAccessSink({
    verifierUrl: s.verifierUrl,
    agentId: s.agentId,
    apiKey: s.apiKey ?? '',
    onEvent: accessSinkMetrics(registry),
    onError: (detail) => context.log.warn({ detail }, 'could not record data accesses'),
  });
  context.lifecycle.onStop('data-access records', async () => {
    await sink.flush();
    sink.stop();
  });
  const injector = createInjector({
    verifierUrl: s.verifierUrl,
    agentId: s.agentId,
    apiKey: s.apiKey ?? '',
    svidDir: s.svidDir,
    platformTokenUrl: s.tokenUrl ?? `${s.verifierUrl.replace(/\/$/, '')}/oauth/token`,
    tokenExchangeUrl: `${s.verifierUrl.replace(/\/$/, '')}/v1/token-exchange`,
  });
  const parts = await setupEgress({
    settings: s,
    context,
    registry,
    network,
    route,
    injector,
    sink,
    match: matchRule,
  });
  const gateway = await startMcpGatewayFromEnv(
    context.env,
    {
      servers: () => parts.bundle.current?.mcpServers ?? [],
      access: parts.access,
      approvals: parts.approvals,
      sink,
      log: context.log,
    },
    s.host,
  );
  if (gateway) context.lifecycle.onStop('mcp gateway', () => gateway.stop());
  const intercept =
    s.intercept === 'routed' ? (host: string) => parts.match(host) !== undefined : () => false;
  return {
    policy: cedarTunnelPolicy(network, parts.access, parts.match),
    recorder: tunnelRecorder(sink),
    l7: { pipeline: parts.pipeline, ca: parts.ca, intercept },
  };
}

export const runProxy: RoleRunner = async (context) => {
  const s = loadProxySettings(context.env, context.flags);
  const log = context.log;
  const registry = newRegistry('proxy');
  const route = { plainPort: s.httpPort, listenPort: s.port, ownAddresses: ownAddresses(s.podIp) };
  let egress: Egress;
  if (s.verifierUrl)
    egress = await egressWithVerifier({ ...s, verifierUrl: s.verifierUrl }, context, registry, route);
  else {
    log.warn(
      {},
      'no PLATFORM_VERIFIER_URL: no Access Manifest, egress policy, approvals or credential injection',
    );
    egress = {
      policy: modelGuard({ modelCidrs: s.modelCidrs, modelPorts: s.modelPorts.map(Number) }),
      recorder: recordNothing,
    };
  }
  const proxy = await startProxyServer({
    host: s.host,
    port: s.port,
    maxConnections: s.maxConnections,
    log,
    metrics: proxyMetrics(registry),
    ...egress,
    registry,
    route,
    tlsPort: s.tlsPort,
    connectTimeoutMs: s.connectTimeout,
    idleTimeoutMs: s.idleTimeout,
    headTimeoutMs: s.headTimeout,
    maxHeadBytes: s.maxHeadBytes,
    originalPort: (client) => originalDestination(client)?.port,
  });
  log.info(
    {
      port: proxy.port,
      agentId: s.agentId,
      tlsPort: s.tlsPort,
      httpPort: s.httpPort,
      requestPath: egress.l7 !== undefined,
    },
    'proxy listening (transparent TLS by SNI, CONNECT, transparent HTTP by Host)',
  );
  context.lifecycle.onStop('proxy listener', () => proxy.stop(s.drainTimeout));
};
