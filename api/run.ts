// `platform run api`: the Verifier API. Every replica watches the same kinds
// into its caches, answers reads from them and writes to the apiserver. With
// DATABASE_URL the audit log and evidence store are shared on PostgreSQL and
// a replica keeps no state of its own (else each has its embedded ones; the
// audit log's is a file by default).
// /healthz, /readyz and /metrics are on the ops port (PLATFORM_API_METRICS_PORT),
// not on the public one, like the operator's and the webhook's.
// SIGTERM: close open console shells (1001), stop accepting, let in-flight
// requests finish (bounded), then stop the informers and the ops server.
import { createServer, type Server } from 'node:http';
import { closeGracefully } from '../base/close.ts';
import { listen } from '../base/listen.ts';
import * as k8s from '@kubernetes/client-node';
import { loadKubeConfig } from '../base/kube.ts';
import type { Logger } from '../base/log.ts';
import { newRegistry, startOpsServer, type OpsServer } from '../base/ops-server.ts';
import { countRestClientRequests } from '../base/controller/request-counter.ts';
import { restClientRequestsMetric } from '../base/controller/standard-metrics.ts';
import type { Registry } from 'prom-client';
import type { RoleRunner } from '../base/role.ts';
import { openEvidenceStore } from '../evidence/open-store.ts';
import { openAccessStore } from '../accesses/open-store.ts';
import { FileAccessStore } from '../accesses/store-file.ts';
import type { ConsoleLog } from '../contract/console.ts';
import { openConsoleLog } from './console/open-log.ts';
import { ConsoleHub } from './console/hub.ts';
import { ConsoleMetrics } from './console/metrics.ts';
import { publishPendingRequests } from './console/pending-requests.ts';
import { kubePodLogSource, PodLogFollowers } from './console/pod-logs.ts';
import { kubePodUsage } from './console/tree-usage.ts';
import type { AccessStore } from '../accesses/store.ts';
import { pinnedAttesterKeys } from '../evidence/intake.ts';
import type { EvidenceStore } from '../evidence/store.ts';
import { kubePolicies } from '../policy/kube-repository.ts';
import { agentResolver, credentialLive } from './agents/evidence-identity.ts';
import { statusPassportSink } from './agents/passport-sink.ts';
import { DEFAULT_MAX_DELEGATION_TTL_MS } from './delegations/model.ts';
import { createApp, type AppOptions } from './app.ts';
import { defaultUiDir, loadUiBundle } from './ui/bundle.ts';
import type { AuditLog } from './audit/log.ts';
import { openAuditLog } from './audit/open.ts';
import { apiKeyAuthenticator } from './auth/api-key-auth.ts';
import { ensureBootstrapKey } from './auth/bootstrap.ts';
import { ApiKeyStore } from './auth/key-store.ts';
import { SubjectTokenLedger } from './oauth/subject-ledger.ts';
import { oidcAuthenticator, oidcVerifier, type OidcVerifier } from './auth/oidc.ts';
import type { Authenticator } from './auth/principal.ts';
import { tokenReviewAuthenticator } from './auth/token-review.ts';
import { ApiMetrics } from './http/metrics.ts';
import { auditorTrustFacts, vocabulariesOf } from './registry/auditors.ts';
import type { ApiDeps } from './routes/route.ts';
import { loadApiSettings, oauthIssuerOf, type ApiSettings } from './settings.ts';
import { clientCertificateFiles, kubeRegistryCredentials } from '../base/registry-credentials.ts';
import { AgentIndex } from './store/cache.ts';
import { clusterWriter, type ClusterWriter } from './store/cluster.ts';
import { kubeWorkflows } from './store/workflows.ts';
import { apiInformers, type ApiInformers } from './store/informers.ts';
import { lazyKeyring } from './scoped/keyring.ts';
import { providerFile } from './scoped/oauth-providers.ts';
import { secretSessions } from './scoped/oauth-sessions.ts';
import { trustBundleSource, trustKeyPolicy, type TrustBundleSource } from './identity/trust-bundle.ts';
import { kubeShellExec, type ShellExec } from './shell/exec.ts';
import { exitCodeOf } from './shell/protocol.ts';
import { ShellServer, type ShellServerOptions } from './shell/server.ts';
import type Koa from 'koa';

export interface RunningApi {
  url: string;
  port: number;
  /** The ops server: /healthz, /readyz, /metrics. */
  opsUrl: string;
  server: Server;
  deps: ApiDeps;
  informers: ApiInformers;
  bootstrapKeyId: string;
  stop(): Promise<void>;
}

export interface StartApiOptions {
  kc: k8s.KubeConfig;
  settings: ApiSettings;
  log: Logger;
  /** The audit log; else `openAuditLog(env)` (DATABASE_URL → PostgreSQL, else embedded). */
  audit?: AuditLog;
  /** The evidence store; else `openEvidenceStore(env)` (DATABASE_URL → PostgreSQL, else embedded). */
  evidenceStore?: EvidenceStore;
  /** The data-access log; else `openAccessStore(env)` (DATABASE_URL → PostgreSQL, else beside the evidence file). */
  accessStore?: AccessStore;
  /** The console event log; opened from the environment when absent (memory, or PostgreSQL). */
  consoleLog?: ConsoleLog;
  env?: NodeJS.ProcessEnv;
  /** The exec behind the console shell; else Kubernetes exec through `kc` (tests without a kubelet replace it). */
  shellExec?: ShellExec;
}

/** The Verifier's evidence and policy dependencies: AuditorPolicy resources, the store, the passport sink. */
interface VerifierParts {
  store: EvidenceStore;
  writer: ClusterWriter;
  informers: ApiInformers;
  agents: AgentIndex;
  keys: ApiKeyStore;
}

function verifierDeps(
  o: StartApiOptions,
  { store, writer, informers, agents, keys }: VerifierParts,
): Pick<ApiDeps, 'evidence' | 'policy' | 'registryCredentials' | 'keyring' | 'oauthConnect'> {
  const keyring = lazyKeyring(o.kc, o.settings, o.log);
  const client = clientCertificateFiles(o.settings.registryClientCert, o.settings.registryClientKey);
  return {
    keyring,
    oauthConnect: {
      providers: providerFile(o.settings.oauthProvidersFile),
      sessions: secretSessions(o.kc.makeApiClient(k8s.CoreV1Api), o.settings.namespace, keyring),
    },
    registryCredentials: kubeRegistryCredentials(
      o.kc.makeApiClient(k8s.CoreV1Api),
      o.settings.namespace,
      client,
    ),
    evidence: {
      store,
      keys: pinnedAttesterKeys(store, credentialLive(keys, Date.now)),
      passport: statusPassportSink(writer, o.log),
      registrations: (id) => auditorTrustFacts(id, informers.auditors.get(id)),
      agents: agentResolver(agents, writer),
      window: { maxFutureMs: o.settings.evidenceMaxSkewMs, maxAgeMs: o.settings.evidenceMaxAgeMs },
      maxBytes: o.settings.evidenceMaxBytes,
    },
    policy: {
      policies: kubePolicies(o.kc, o.settings.watchNamespace),
      vocabularies: () => vocabulariesOf(informers.auditors.list()),
      organizationOf: async (namespace, name) =>
        (await writer.readWorkspace(namespace, name))?.spec.organization,
    },
  };
}

/** The configured OIDC issuer's token check (API authentication and token-exchange subjects); none without one. */
function oidcOf(s: ApiSettings): OidcVerifier | undefined {
  if (!s.oidcIssuer) return undefined;
  return oidcVerifier({
    issuer: s.oidcIssuer,
    audience: s.oidcAudience,
    ...(s.oidcJwksUrl ? { jwksUrl: s.oidcJwksUrl } : {}),
    subjectClaim: s.oidcSubjectClaim,
    groupsClaim: s.oidcGroupsClaim,
    grants: { orgAdmins: s.orgAdmins, workspaceAdmins: s.workspaceAdmins },
  });
}

function authenticators(
  s: ApiSettings,
  kc: k8s.KubeConfig,
  keys: ApiKeyStore,
  oidc: OidcVerifier | undefined,
): Authenticator[] {
  const grants = { orgAdmins: s.orgAdmins, workspaceAdmins: s.workspaceAdmins };
  const list: Authenticator[] = [apiKeyAuthenticator(keys)];
  if (oidc) list.push(oidcAuthenticator(oidc));
  list.push(
    tokenReviewAuthenticator({
      api: kc.makeApiClient(k8s.AuthenticationV1Api),
      grants,
      audiences: s.tokenAudiences,
    }),
  );
  return list;
}

/** The MCP endpoint's settings. */
function mcpOptions(s: ApiSettings): NonNullable<AppOptions['mcp']> {
  return {
    enabled: s.mcpEnabled,
    toolsPath: s.mcpToolsPath,
    metadataPath: s.mcpMetadataPath,
    maxConcurrentCalls: s.mcpMaxConcurrentCalls,
  };
}

/** OBO delegation: consent requests and grants, and their time limits. */
function delegationDeps(
  informers: ApiInformers,
  s: ApiSettings,
  oidc: OidcVerifier | undefined,
): Pick<
  ApiDeps,
  'consents' | 'grants' | 'consentTtlMs' | 'maxDelegationTtlMs' | 'userTokens' | 'exchangedSubjects'
> {
  return {
    ...(oidc ? { userTokens: oidc } : {}),
    exchangedSubjects: new SubjectTokenLedger(),
    consents: informers.consents,
    grants: informers.grants,
    consentTtlMs: s.consentTtlMs,
    maxDelegationTtlMs: DEFAULT_MAX_DELEGATION_TTL_MS,
  };
}

/** What is wrong with any of the informers, joined; '' when nothing is. */
function problemsOf<I>(informers: readonly I[], problem: (i: I) => string | undefined): string {
  return informers.map(problem).filter(Boolean).join('; ');
}

function informersOf({ kc, settings: s, log }: StartApiOptions): ApiInformers {
  const timings = { relistIntervalMs: s.relistIntervalMs, staleAfterMs: s.staleAfterMs };
  return apiInformers(kc, log, timings, { keyNamespace: s.namespace, watchNamespace: s.watchNamespace });
}

/** The trust-domain keys, kept in a Secret of the API namespace (decision 133). */
function trustKeysOf({ kc, settings: s, log }: StartApiOptions): TrustBundleSource {
  return trustBundleSource(kc, {
    secret: { namespace: s.namespace, name: s.trustKeySecret },
    policy: trustKeyPolicy(s.trustDomain, s.trustKeyRotation),
    log,
  });
}

/** The append-only stores the options do not give: DATABASE_URL → PostgreSQL, else the embedded files. */
async function openStores(o: StartApiOptions): Promise<{
  evidenceStore: EvidenceStore;
  accessStore: AccessStore;
  audit: AuditLog;
  consoleLog: ConsoleLog;
}> {
  const { settings: s, log } = o;
  const env = o.env ?? {};
  const accessStore = o.accessStore ?? (await openAccessStore(env, s.evidenceFile));
  // The embedded log's chain is checked on open; a break is logged loudly, the log stays readable.
  if (accessStore instanceof FileAccessStore && !accessStore.opened.ok)
    log.error({ check: accessStore.opened }, 'data-access log: the hash chain is broken');
  return {
    evidenceStore: o.evidenceStore ?? (await openEvidenceStore(env, s.evidenceFile)),
    accessStore,
    audit: o.audit ?? (await openAuditLog(env, { path: s.auditLogPath, window: s.auditWindow, log })),
    consoleLog: o.consoleLog ?? (await openConsoleLog(env, log)),
  };
}

/**
 * The console: its event log, the fan-out (following the logs of the agents
 * its streams watch), and pending approvals and consents published as they arrive.
 */
function consoleOf(
  { kc, settings: s, log }: StartApiOptions,
  {
    consoleLog,
    registry,
    informers,
  }: { consoleLog: ConsoleLog; registry: Registry; informers: ApiInformers },
): Pick<ApiDeps, 'console' | 'consoleHub' | 'podUsage'> {
  const followers: PodLogFollowers = new PodLogFollowers({
    source: kubePodLogSource(kc),
    publish: (events): Promise<void> => hub.publish(events),
    log,
  });
  const hub: ConsoleHub = new ConsoleHub(consoleLog, {
    log,
    metrics: new ConsoleMetrics(registry),
    heartbeatMs: s.consoleHeartbeatMs,
    maxQueuedBytes: s.consoleClientBufferBytes,
    onWatch: (agentId): (() => void) => followers.watch(agentId),
  });
  publishPendingRequests({
    approvals: informers.approvals,
    consents: informers.consents,
    consentTtlMs: s.consentTtlMs,
    now: Date.now,
    publish: (events) => hub.publish(events),
  });
  return { console: consoleLog, consoleHub: hub, podUsage: kubePodUsage(kc, { log }) };
}

type Stores = Awaited<ReturnType<typeof openStores>>;

/** Closes the stores this API opened (not those the options gave). */
async function closeOpenedStores(o: StartApiOptions, stores: Stores): Promise<void> {
  if (!o.evidenceStore) await stores.evidenceStore.close();
  if (!o.accessStore) await stores.accessStore.close();
  if (!o.audit) await stores.audit.close?.();
  if (!o.consoleLog) await stores.consoleLog.close();
}

/** The HTTP server: the app, and beside it the console shell's WebSocket upgrades. */
function httpServer(
  o: StartApiOptions,
  app: Koa,
  shell: Omit<ShellServerOptions, 'exec' | 'idleMs'>,
): { server: Server; shells: ShellServer } {
  const handler = app.callback();
  const server = createServer(handler);
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  const shells = new ShellServer({
    ...shell,
    exec: o.shellExec ?? kubeShellExec(o.kc, exitCodeOf),
    idleMs: o.settings.consoleShellIdleSeconds * 1000,
  });
  shells.attach(server, handler);
  return { server, shells };
}

interface StopParts {
  server: Server;
  ops: OpsServer;
  shells: ShellServer;
  trustKeys: TrustBundleSource;
  informers: ApiInformers;
  stores: Stores;
  consoleHub: ConsoleHub;
}

/** The API's stop; a second call (a test stopping early, then its cleanup) waits for the first. */
function stopperOf(o: StartApiOptions, p: StopParts): () => Promise<void> {
  const graceMs = o.settings.shutdownGraceMs;
  const stopOnce = async (): Promise<void> => {
    // Open shells are upgraded sockets the server no longer tracks: closed (1001) and recorded first.
    await p.shells.closeAll(graceMs);
    // Open console streams end next: a graceful close waits for every open response.
    p.consoleHub.stop();
    await closeGracefully(p.server, graceMs);
    p.trustKeys.stop();
    await Promise.all(p.informers.all.map((i) => i.stop()));
    await closeOpenedStores(o, p.stores);
    await p.ops.close();
  };
  let stopping: Promise<void> | undefined;
  return () => (stopping ??= stopOnce());
}

/** /healthz, /readyz and /metrics on the ops port: alive and ready while the informers are. */
function opsServerOf(
  { settings: s, log }: StartApiOptions,
  registry: Registry,
  informers: ApiInformers,
): Promise<OpsServer> {
  return startOpsServer({
    host: s.host,
    port: s.metricsPort,
    registry,
    log,
    readiness: { informers: () => problemsOf(informers.all, (i) => i.staleness()) },
    liveness: { informers: () => problemsOf(informers.all, (i) => i.stalled()) },
  });
}

export async function startApi(o: StartApiOptions): Promise<RunningApi> {
  const { kc, settings: s, log } = o;
  const registry = newRegistry('api');
  countRestClientRequests(kc, restClientRequestsMetric(registry));
  const informers = informersOf(o);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const keys = new ApiKeyStore(core, s.namespace, informers.keys);
  const metrics = new ApiMetrics(registry);
  const stores = await openStores(o);
  const { evidenceStore, accessStore, audit, consoleLog } = stores;
  const writer = clusterWriter(kc);
  const agents = new AgentIndex(informers.agents);
  const trustKeys = trustKeysOf(o);
  const deps: ApiDeps = {
    agents,
    approvals: informers.approvals,
    auditors: informers.auditors,
    models: informers.models,
    catalog: informers.catalog,
    installedApps: informers.installedApps,
    ...delegationDeps(informers, s, oidcOf(s)),
    writer,
    keys,
    audit,
    log,
    now: Date.now,
    approvalTtlMs: s.approvalTtlMs,
    workflows: kubeWorkflows(kc, s.watchNamespace),
    trustBundle: trustKeys.bundle,
    signingKey: trustKeys.signingKey,
    oauthIssuer: oauthIssuerOf(s),
    ...verifierDeps(o, { store: evidenceStore, writer, informers, agents, keys }),
    accesses: accessStore,
    ...consoleOf(o, { consoleLog, registry, informers }),
  };
  for (const i of informers.all) i.start();
  const bootstrapKeyId = await ensureBootstrapKey({ core, store: keys, secretName: s.bootstrapSecret, log });
  const callers = authenticators(s, kc, keys, deps.userTokens);
  const app = createApp({
    deps,
    authenticators: callers,
    log,
    metrics,
    registry,
    bodyLimitBytes: s.bodyLimitBytes,
    mcp: mcpOptions(s),
    ui: { bundle: uiBundle(log) },
  });
  const ops = await opsServerOf(o, registry, informers);
  const { server, shells } = httpServer(o, app, { deps, authenticators: callers, metrics, core });
  const port = await listen(server, s.port, s.host);
  log.info({ port, namespace: s.namespace, watch: s.watchNamespace ?? '(all)' }, 'api listening');
  const parts = { server, ops, shells, trustKeys, informers, stores, consoleHub: deps.consoleHub };
  const stop = stopperOf(o, parts);
  const opsUrl = `http://127.0.0.1:${ops.port}`;
  return { url: `http://127.0.0.1:${port}`, port, opsUrl, server, deps, informers, bootstrapKeyId, stop };
}

/** The management UI's bundle; a missing one is logged once (the UI then answers 503 with how to build it). */
function uiBundle(log: Logger): ReturnType<typeof loadUiBundle> {
  const dir = defaultUiDir();
  const bundle = loadUiBundle(dir);
  if (bundle) log.info({ dir, files: bundle.files.size }, 'management UI at /ui/');
  else log.warn({ dir }, 'management UI not built (npm run build:ui): /ui/ answers 503');
  return bundle;
}

export const runApi: RoleRunner = async ({ log, lifecycle, env, flags }) => {
  const settings = loadApiSettings(env, flags);
  const kc = loadKubeConfig(settings.kubeconfig);
  const api = await startApi({ kc, settings, log, env });
  lifecycle.onStop('api server', () => api.stop());
};
