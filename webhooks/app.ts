// Wires the webhook: informer caches and certificate watches → certificate
// rotator → HTTPS server with /mutate, /validate and /validate-policy. Used by
// `platform run webhook` and by the integration tests, so both run the same
// composition. A missing certificate is not fatal: the server listens at once
// and serves from the first certificate the rotator loads; until then
// `certificateReadiness()` says why it is not ready. Admission reads the
// caches once they have synced (live reads before that), so an answer never
// waits for them (decision 96).
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../base/log.ts';
import { cacheFirstClusterView, kubeClusterView, kubeEventSink } from './cluster.ts';
import {
  admissionCaches,
  cacheReadiness,
  certificateWatches,
  type AdmissionCaches,
  type CertificateWatches,
} from './informers.ts';
import type { WebhookMetrics } from './metrics.ts';
import { handleMutate, type MutateDeps } from './mutate/handler.ts';
import type { MutateOptions } from './mutate/inject.ts';
import { startWebhookServer, type WebhookServer } from './server.ts';
import type { KeyPair } from '../base/tls/certs.ts';
import { CertRotator, type CertRotatorOptions } from './tls/rotation.ts';
import { handleValidate, type ValidateDeps } from './validate/handler.ts';
import { httpNotary, type HttpNotaryOptions } from './validate/notary.ts';
import { handleValidatePolicy, type PolicyValidateDeps } from './validate/policy.ts';
import { listAuditorPolicies } from '../policy/kube-repository.ts';
import type { ResilientInformer } from '../base/controller/informer.ts';
import { orUndefinedOn404 } from '../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../contract/kube.ts';
import type { PlatformWorkspace } from '../crds/generated/types.ts';

type CacheLifecycle = Pick<
  ResilientInformer<k8s.KubernetesObject>,
  'start' | 'stop' | 'waitForSync' | 'staleness'
>;

export interface WebhookAppOptions {
  kc: k8s.KubeConfig;
  log: Logger;
  metrics?: WebhookMetrics;
  instance: string;
  host?: string;
  port: number;
  bodyLimitBytes: number;
  mutate: MutateOptions;
  strictNotarization: boolean;
  notary: Omit<HttpNotaryOptions, 'metrics'>;
  /** How long a live answer (a namespace or chain ConfigMap the cache does not settle) is reused; 0: never. */
  clusterCacheTtlMs: number;
  /** How long start-up waits for the caches before serving with live reads; default 10 s. */
  cacheSyncTimeoutMs?: number;
  /** Given the readiness checks as soon as they exist, before the certificate is loaded and the caches sync. */
  onReadiness?: (checks: ReadinessChecks) => void;
  tls: Omit<CertRotatorOptions, 'core' | 'admission' | 'onServingCertificate' | 'log' | 'metrics'>;
}

export interface ReadinessChecks {
  /** '' when a valid serving certificate is served, else why not. */
  certificate(): string;
  /** '' when every informer cache has synced and is fresh, else why not. */
  caches(): string;
}

export interface WebhookApp {
  server: WebhookServer;
  rotator: CertRotator;
  mutateDeps: MutateDeps;
  /** '' when a valid serving certificate is served, else why not (for `/readyz`). */
  certificateReadiness(): string;
  /** '' when every informer cache has synced and is fresh, else why not (for `/readyz`). */
  cacheReadiness(): string;
  /** Mutable, so a test can switch strict notarization. */
  validateDeps: ValidateDeps;
  close(): Promise<void>;
}

/** Certificate watch events go to the rotator, which debounces them. */
function watchCertificates(watches: CertificateWatches, rotator: CertRotator): void {
  watches.secret.on(() => rotator.secretChanged());
  watches.mutating?.on(() => rotator.configChanged());
  watches.validating?.on(() => rotator.configChanged());
}

function policySource(o: WebhookAppOptions, caches: AdmissionCaches): PolicyValidateDeps['policies'] {
  const customObjects = o.kc.makeApiClient(k8s.CustomObjectsApi);
  return async () =>
    caches.policies.isSynced() ? caches.policies.list() : listAuditorPolicies(customObjects);
}

/** A workspace's Organization: from the cache once synced, read live before that. */
function workspaceOrganization(
  o: WebhookAppOptions,
  caches: AdmissionCaches,
): NonNullable<PolicyValidateDeps['organizationOf']> {
  const customObjects = o.kc.makeApiClient(k8s.CustomObjectsApi);
  const ref = { group: GROUP, version: VERSION, plural: PLURAL.workspace };
  return async (namespace, name) => {
    const ws = caches.workspaces.isSynced()
      ? caches.workspaces.get(`${namespace}/${name}`)
      : ((await orUndefinedOn404(customObjects.getNamespacedCustomObject({ ...ref, namespace, name }))) as
          PlatformWorkspace | undefined);
    return ws?.spec.organization;
  };
}

/** What each admission handler reads and reports through. */
function handlerDeps(
  o: WebhookAppOptions,
  caches: AdmissionCaches,
): { mutateDeps: MutateDeps; validateDeps: ValidateDeps; policyDeps: PolicyValidateDeps } {
  return {
    mutateDeps: {
      options: o.mutate,
      cluster: cacheFirstClusterView(caches, kubeClusterView(o.kc), o.clusterCacheTtlMs),
      events: kubeEventSink(o.kc, o.log, o.instance),
      log: o.log,
      metrics: o.metrics,
    },
    validateDeps: {
      strictNotarization: o.strictNotarization,
      notary: httpNotary({ ...o.notary, metrics: o.metrics }),
      log: o.log,
      metrics: o.metrics,
    },
    policyDeps: {
      policies: policySource(o, caches),
      organizationOf: workspaceOrganization(o, caches),
      log: o.log,
      metrics: o.metrics,
    },
  };
}

export async function startWebhookApp(o: WebhookAppOptions): Promise<WebhookApp> {
  const holder: { server?: WebhookServer } = {};
  const caches = admissionCaches(o.kc, o.log);
  const watches = certificateWatches(o.kc, o.log, o.tls);
  const informers: CacheLifecycle[] = [...Object.values(caches), ...Object.values(watches)];
  const rotator = new CertRotator({
    ...o.tls,
    core: o.kc.makeApiClient(k8s.CoreV1Api),
    admission: o.kc.makeApiClient(k8s.AdmissionregistrationV1Api),
    onServingCertificate: (pair) => serve(holder.server, pair, o.log),
    log: o.log,
    metrics: o.metrics,
  });
  o.onReadiness?.({ certificate: () => rotator.readiness(), caches: () => cacheReadiness(informers) });
  await rotator.start();
  watchCertificates(watches, rotator);
  for (const informer of informers) informer.start();
  const stopInformers = (): Promise<unknown> => Promise.all(informers.map((i) => i.stop()));
  const { mutateDeps, validateDeps, policyDeps } = handlerDeps(o, caches);
  const server = await startWebhookServer({
    host: o.host,
    port: o.port,
    bodyLimitBytes: o.bodyLimitBytes,
    handlerTimeoutMs: 9_000,
    log: o.log,
    metrics: o.metrics,
    routes: {
      '/mutate': (r) => handleMutate(r, mutateDeps),
      '/validate': (r) => handleValidate(r, validateDeps),
      '/validate-policy': (r) => handleValidatePolicy(r, policyDeps),
    },
  }).catch(async (err: unknown) => {
    rotator.stop();
    await stopInformers();
    throw err;
  });
  holder.server = server;
  serve(server, rotator.serving(), o.log); // loaded before the server listened
  await Promise.all(informers.map((i) => i.waitForSync(o.cacheSyncTimeoutMs ?? 10_000)));
  return {
    server,
    rotator,
    mutateDeps,
    certificateReadiness: () => rotator.readiness(),
    cacheReadiness: () => cacheReadiness(informers),
    validateDeps,
    close: async () => {
      await stopInformers();
      rotator.stop();
      await server.close();
    },
  };
}

function serve(server: WebhookServer | undefined, pair: KeyPair | undefined, log: Logger): void {
  if (!server || !pair) return;
  try {
    server.reloadCertificate(pair);
  } catch (err) {
    log.error({ err: String(err) }, 'the serving certificate cannot be used; serving the previous one');
  }
}
