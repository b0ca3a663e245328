// Assembles the proxy's request path from its settings: the egress bundle read
// from the Verifier, Cedar access, Verifier-backed approvals, the pod-local CA
// (its certificate written for the agent's containers) and the HTTP pipeline.
// The injector and the data-access sink are built by the caller.
import { readFile } from 'node:fs/promises';
import { Counter, type Registry } from 'prom-client';
import type { RoleContext } from '../../base/role.ts';
import type { ProxySettings } from '../config.ts';
import type { RouteOptions } from '../route.ts';
import type { ManifestPolicy } from '../access-manifest.ts';
import { VerifierApprovalGate } from './approval-gate.ts';
import { BundleSource, verifierBundleFetch } from './bundle-source.ts';
import { CedarAccess } from './cedar-access.ts';
import type { AccessSink, EgressRule, Injector } from '../../contract/egress.ts';
import { createPipeline, type Pipeline } from './http-pipeline.ts';
import { InterceptCa } from './intercept-ca.ts';

export interface EgressParts {
  bundle: BundleSource;
  access: CedarAccess;
  approvals: VerifierApprovalGate;
  pipeline: Pipeline;
  ca: InterceptCa;
  match: (host: string) => EgressRule | undefined;
}

export interface EgressSetup {
  settings: ProxySettings & { verifierUrl: string };
  context: RoleContext;
  registry: Registry;
  /** The model guard behind the manifest's network domain. */
  network: ManifestPolicy;
  route: RouteOptions;
  injector: Injector;
  sink: AccessSink;
  match: (rules: readonly EgressRule[], host: string) => EgressRule | undefined;
}

async function extraRoots(file: string | undefined): Promise<string[]> {
  return file ? [await readFile(file, 'utf8')] : [];
}

function startBundle(o: EgressSetup): BundleSource {
  const s = o.settings;
  const log = o.context.log;
  const refreshes = new Counter({
    name: 'platform_proxy_egress_refreshes_total',
    help: "Reads of the agent's egress bundle (rules, Cedar policy) from the Verifier, by result",
    labelNames: ['result'],
    registers: [o.registry],
  });
  const bundle = new BundleSource({
    fetch: verifierBundleFetch({ verifierUrl: s.verifierUrl, agentId: s.agentId, apiKey: s.apiKey }),
    log,
    onRefresh: (ok) => refreshes.inc({ result: ok ? 'ok' : 'error' }),
    onChange: (b) => log.info({ version: b.version, rules: b.rules.length }, 'egress bundle loaded'),
  });
  void bundle.start(s.manifestRefresh);
  o.context.lifecycle.onStop('egress bundle refresh', () => bundle.stop());
  return bundle;
}

export async function setupEgress(o: EgressSetup): Promise<EgressParts> {
  const s = o.settings;
  const log = o.context.log;
  const bundle = startBundle(o);
  const match = (host: string): EgressRule | undefined => o.match(bundle.current?.rules ?? [], host);
  const access = new CedarAccess({
    agentId: s.agentId,
    bundle: () => bundle.current,
    manifest: () => o.network.current,
  });
  const approvals = new VerifierApprovalGate({
    verifierUrl: s.verifierUrl,
    agentId: s.agentId,
    apiKey: s.apiKey,
    holdMs: s.approvalHold,
    log,
    onRequested: (approvalId, call) =>
      log.info(
        { event: 'approval_requested', approval_id: approvalId, action: call.action, target: call.target },
        'approval requested',
      ),
  });
  const ca = InterceptCa.create();
  await ca
    .writeBundle(s.caDir)
    .catch((err: Error) =>
      log.error(
        { err: err.message, dir: s.caDir },
        'could not write the CA bundle: agents will not trust intercepted TLS',
      ),
    );
  const pipeline = createPipeline({
    agentId: s.agentId,
    access,
    approvals,
    injector: o.injector,
    sink: o.sink,
    match,
    ready: () => bundle.get(),
    guard: o.network,
    route: o.route,
    upstream: { extraRoots: await extraRoots(s.upstreamCaFile), responseTimeoutMs: s.responseTimeout },
    maxBodyBytes: s.maxBodyBytes,
    maxHeadBytes: s.maxHeadBytes,
    headTimeoutMs: s.headTimeout,
    idleTimeoutMs: s.idleTimeout,
    userClaim: s.userClaim,
    log,
  });
  o.context.lifecycle.onStop('egress pipeline', () => pipeline.close());
  return { bundle, access, approvals, pipeline, ca, match };
}
