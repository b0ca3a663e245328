// Wires the webhook: certificate rotator → HTTPS server with /mutate,
// /validate and /validate-policy. Used by `platform run webhook` and by the integration tests, so
// both run the same composition. A missing certificate is not fatal: the
// server listens at once and serves from the first certificate the rotator
// loads; until then `certificateReadiness()` says why it is not ready.
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '../operator/log.ts';
import { kubeClusterView, kubeEventSink } from './cluster.ts';
import type { WebhookMetrics } from './metrics.ts';
import { handleMutate, type MutateDeps } from './mutate/handler.ts';
import type { MutateOptions } from './mutate/inject.ts';
import { startWebhookServer, type WebhookServer } from './server.ts';
import type { KeyPair } from './tls/certs.ts';
import { CertRotator, type CertRotatorOptions } from './tls/rotation.ts';
import { handleValidate, type ValidateDeps } from './validate/handler.ts';
import { httpNotary, type HttpNotaryOptions } from './validate/notary.ts';
import { handleValidatePolicy, type PolicyValidateDeps } from './validate/policy.ts';
import { listAuditorPolicies } from '../policy/kube-repository.ts';

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
  clusterCacheTtlMs: number;
  tls: Omit<CertRotatorOptions, 'core' | 'admission' | 'onServingCertificate' | 'log' | 'metrics'>;
}

export interface WebhookApp {
  server: WebhookServer;
  rotator: CertRotator;
  mutateDeps: MutateDeps;
  /** '' when a valid serving certificate is served, else why not (for `/readyz`). */
  certificateReadiness(): string;
  /** Mutable, so a test can switch strict notarization. */
  validateDeps: ValidateDeps;
  close(): Promise<void>;
}

export async function startWebhookApp(o: WebhookAppOptions): Promise<WebhookApp> {
  const holder: { server?: WebhookServer } = {};
  const rotator = new CertRotator({
    ...o.tls,
    core: o.kc.makeApiClient(k8s.CoreV1Api),
    admission: o.kc.makeApiClient(k8s.AdmissionregistrationV1Api),
    onServingCertificate: (pair) => serve(holder.server, pair, o.log),
    log: o.log,
    metrics: o.metrics,
  });
  await rotator.start();
  const mutateDeps: MutateDeps = {
    options: o.mutate,
    cluster: kubeClusterView(o.kc, o.clusterCacheTtlMs),
    events: kubeEventSink(o.kc, o.log, o.instance),
    log: o.log,
    metrics: o.metrics,
  };
  const validateDeps: ValidateDeps = {
    strictNotarization: o.strictNotarization,
    notary: httpNotary({ ...o.notary, metrics: o.metrics }),
    log: o.log,
    metrics: o.metrics,
  };
  const customObjects = o.kc.makeApiClient(k8s.CustomObjectsApi);
  const policyDeps: PolicyValidateDeps = {
    policies: () => listAuditorPolicies(customObjects),
    log: o.log,
    metrics: o.metrics,
  };
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
  }).catch((err: unknown) => {
    rotator.stop();
    throw err;
  });
  holder.server = server;
  serve(server, rotator.serving(), o.log); // loaded before the server listened
  return {
    server,
    rotator,
    mutateDeps,
    certificateReadiness: () => rotator.readiness(),
    validateDeps,
    close: async () => {
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
