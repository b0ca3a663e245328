// `platform run webhook`: the admission webhook (/mutate, /validate) over
// HTTPS with self-managed certificates, plus /healthz, /readyz and /metrics.
// Only the leader writes the certificate Secret and the caBundles; a replica
// that starts before any certificate exists stays up, not ready, and serves
// once the Secret holds one.
import { hostname } from 'node:os';
import * as k8s from '@kubernetes/client-node';
import { loadKubeConfig, serverVersion } from '../base/kube.ts';
import type { Logger } from '../base/log.ts';
import { newRegistry, startOpsServer } from '../base/ops-server.ts';
import type { RoleRunner } from '../base/role.ts';
import { LeaderElector } from '../base/controller/leader-election.ts';
import { countRestClientRequests } from '../base/controller/request-counter.ts';
import type { LeaderStatus } from '../base/controller/standard-metrics.ts';
import { startWebhookApp, type ReadinessChecks, type WebhookApp } from './app.ts';
import { WebhookMetrics } from './metrics.ts';
import { buildDirectory } from './mutate/directory.ts';
import type { MutateOptions } from './mutate/inject.ts';
import { certificateNames, loadWebhookSettings, type WebhookSettings } from './settings.ts';
import { SECRET_KEY } from '../contract/kube.ts';

/** Native sidecars are on by default from Kubernetes 1.29. */
async function nativeSidecars(s: WebhookSettings, kc: k8s.KubeConfig, log: Logger): Promise<boolean> {
  if (s.nativeSidecars !== 'auto') return s.nativeSidecars === 'true';
  try {
    const m = /^v(\d+)\.(\d+)/.exec(await serverVersion(kc));
    return m !== null && (Number(m[1]) > 1 || Number(m[2]) >= 29);
  } catch (err) {
    log.warn({ err: String(err) }, 'cannot read the server version; using classic sidecars');
    return false;
  }
}

function mutateOptions(s: WebhookSettings, native: boolean): MutateOptions {
  return {
    directory: buildDirectory(s.platformImage, s.thirdParty),
    images: { gateway: s.platformImage, proxy: s.platformImage, init: s.platformImage },
    modelUrl: s.modelUrl,
    verifierUrl: s.verifierUrl,
    teeProvider: s.teeProvider as 'COCO' | 'MOCK',
    nativeSidecars: native,
    redirect: s.redirect
      ? { modelCidrs: s.modelCidrs, modelPorts: s.modelPorts.map(Number), excludeCidrs: s.excludeCidrs }
      : false,
    apiKeySecret: { name: s.apiKeySecret, key: SECRET_KEY.apiKey },
    excludedNamespaces: [s.namespace, 'kube-system'],
    sidecarDefaults: s.sidecarDefaults,
  };
}

/** The webhook replicas' Lease. */
const WEBHOOK_LEASE = 'platform-webhook';

/**
 * The lease election among webhook replicas (when enabled); the leader refreshes the certificate on winning.
 * Without it this replica is the one that manages the certificate, and reports itself as the leader.
 */
function leaderElectorOf(
  s: WebhookSettings,
  o: {
    kc: k8s.KubeConfig;
    log: Logger;
    identity: string;
    status: LeaderStatus;
    refresh: () => Promise<unknown> | undefined;
  },
): LeaderElector | undefined {
  const { kc, log, identity, refresh, status } = o;
  if (!s.leaderElection) {
    status.set(WEBHOOK_LEASE, true);
    return undefined;
  }
  return new LeaderElector({
    api: kc.makeApiClient(k8s.CoordinationV1Api),
    namespace: s.namespace,
    name: WEBHOOK_LEASE,
    identity,
    status,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    log,
    onStartedLeading: () =>
      void refresh()?.catch((err: unknown) => log.error({ err: String(err) }, 'refresh failed')),
    onStoppedLeading: () => undefined,
  });
}

export const runWebhook: RoleRunner = async ({ log, lifecycle, env, flags }) => {
  const s = loadWebhookSettings(env, flags);
  const kc = loadKubeConfig(s.kubeconfig);
  const registry = newRegistry('webhook');
  const metrics = new WebhookMetrics(registry);
  countRestClientRequests(kc, metrics.restClient);
  const identity = `${hostname()}_${process.pid}`;
  const holder: { app?: WebhookApp; checks?: ReadinessChecks } = {};
  const ops = await startOpsServer({
    port: s.metricsPort,
    registry,
    log,
    readiness: {
      certificate: () => holder.checks?.certificate() ?? 'the admission server is starting',
      // The first thing missing, once: the caches are reported while a certificate is served.
      caches: () => (holder.checks?.certificate() === '' ? holder.checks.caches() : ''),
    },
  });
  lifecycle.onStop('ops server', () => ops.close());
  const elector = leaderElectorOf(s, {
    kc,
    log,
    identity,
    status: metrics.leaderStatus,
    refresh: () => holder.app?.rotator.refresh(),
  });
  if (elector) {
    elector.start();
    lifecycle.onStop('leader election', () => elector.stop());
  }
  const started = await startWebhookApp({
    kc,
    log,
    metrics,
    instance: identity,
    host: s.host,
    port: s.port,
    bodyLimitBytes: s.bodyLimitBytes,
    mutate: mutateOptions(s, await nativeSidecars(s, kc, log)),
    strictNotarization: s.strictNotarization,
    notary: {
      verifierUrl: s.verifierUrl,
      timeoutMs: s.verifierTimeoutMs,
      cacheTtlMs: s.notaryCacheTtlMs,
      negativeCacheTtlMs: 30_000,
    },
    clusterCacheTtlMs: s.clusterCacheTtlMs,
    onReadiness: (checks) => (holder.checks = checks),
    tls: {
      secret: { namespace: s.namespace, name: s.tlsSecret },
      names: certificateNames(s),
      mutatingConfig: s.mutatingConfig,
      validatingConfig: s.validatingConfig,
      manage: s.manageCertificates,
      isLeader: () => elector?.isLeader() ?? true,
    },
  });
  holder.app = started;
  lifecycle.onStop('webhook server', () => started.close());
};
