// `platform run operator`: the controllers behind leader election. Informers
// run in every replica (a follower's cache is warm when it takes over); only
// the leader runs controllers. Losing the lease stops them; SIGTERM stops the
// controllers (in-flight reconciles finish), releases the lease, stops the
// informers and closes the ops server, in that order.
import * as k8s from '@kubernetes/client-node';
import type { Lifecycle } from '../base/lifecycle.ts';
import type { Logger } from '../base/log.ts';
import { newRegistry, startOpsServer } from '../base/ops-server.ts';
import { loadKubeConfig } from '../base/kube.ts';
import type { RoleRunner } from '../base/role.ts';
import { createAgentController } from './agent/controller.ts';
import { allInformers, buildCaches } from './common/caches.ts';
import { reuseConnections } from '../base/controller/connection-reuse.ts';
import { countApiRequests } from '../base/controller/request-counter.ts';
import type { ControllerContext } from './common/toolkit.ts';
import { createConsentController, createGrantController } from './delegation/controller.ts';
import { createCredentialController } from './credential/controller.ts';
import { createEnvironmentController } from './environment/controller.ts';
import { holdKeyring, type KeyringHolder } from './keyring.ts';
import { createOrganizationController } from './organization/controller.ts';
import { createModelHealthController, createRegistryHealthController } from './registry/controller.ts';
import { clientCertificateFiles, kubeRegistryCredentials } from '../base/registry-credentials.ts';
import type { Controller } from '../base/controller/controller.ts';
import type { ResilientInformer } from '../base/controller/informer.ts';
import { LeaderElector } from '../base/controller/leader-election.ts';
import { ControllerMetrics } from '../base/controller/metrics.ts';
import { loadOperatorSettings, type OperatorSettings } from './settings.ts';
import { createWorkspaceController } from './workspace/controller.ts';
import { createWorkflowController } from './workflow/controller.ts';
import { createIdentityController } from './identity/controller.ts';
import { createReadyControllers } from './ready/controller.ts';

interface Manager {
  informers: ResilientInformer<k8s.KubernetesObject>[];
  controllers: Controller[];
  keyring: KeyringHolder;
}

function buildManager(
  kc: k8s.KubeConfig,
  settings: OperatorSettings,
  log: Logger,
  metrics: ControllerMetrics,
): Manager {
  const caches = buildCaches({
    kc,
    log,
    metrics,
    relistIntervalMs: settings.relistIntervalMs,
    staleAfterMs: settings.staleAfterMs,
    namespace: settings.watchNamespace,
  });
  const ctx: ControllerContext = {
    kc,
    caches,
    log,
    metrics,
    identity: settings.identity,
    workers: settings.workers,
    resyncIntervalMs: settings.resyncIntervalMs,
  };
  const runtime = { image: settings.agentImage, runtimeClassName: settings.runtimeClassName };
  const agents = { resync: (): void => undefined };
  const keyring = holdKeyring(kc, settings, log, () => agents.resync());
  const agentController = createAgentController(ctx, {
    pod: { ...runtime, trustDomain: settings.trustDomain },
    emailDomain: settings.agentEmailDomain ?? `agents.${settings.trustDomain}`,
    staleAfterMs: settings.agentStaleAfterMs,
    requireInjection: settings.agentRequireInjection,
    keyring: keyring.current,
    keyNamespace: settings.apiNamespace,
    ...(settings.modelUrl ? { defaultModelUrl: settings.modelUrl } : {}),
  });
  agents.resync = () => agentController.resync();
  const controllers = [
    agentController,
    createWorkspaceController(ctx),
    createOrganizationController(ctx, settings.watchNamespace),
    createEnvironmentController(ctx, {
      image: settings.modelServerImage,
      args: settings.modelServerArgs,
      runtimeClassName: settings.runtimeClassName,
    }),
    createGrantController(ctx),
    createConsentController(ctx, settings.consentTtlMs),
    createCredentialController(ctx),
    ...registryHealthControllers(ctx, kc, settings),
    createWorkflowController(ctx),
    createIdentityController(ctx, {
      keyNamespace: settings.apiNamespace,
      policy: { ttlSeconds: Math.round(settings.svidTtlMs / 1000), audience: settings.oauthIssuer },
      tokenUrl: settings.oauthTokenUrl ?? `${settings.oauthIssuer.replace(/\/+$/, '')}/oauth/token`,
    }),
    ...createReadyControllers(ctx, settings.watchNamespace),
  ];
  return { informers: allInformers(caches), controllers, keyring };
}

/** The auditor and model probes, with the registrations' credentials: API keys from Secrets in the API namespace. */
function registryHealthControllers(
  ctx: ControllerContext,
  kc: k8s.KubeConfig,
  settings: OperatorSettings,
): Controller[] {
  const client = clientCertificateFiles(settings.registryClientCert, settings.registryClientKey);
  const credentials = kubeRegistryCredentials(kc.makeApiClient(k8s.CoreV1Api), settings.apiNamespace, client);
  const o = { watchNamespace: settings.watchNamespace, credentials };
  return [createRegistryHealthController(ctx, o), createModelHealthController(ctx, o)];
}

function informerCheck(
  informers: ResilientInformer<k8s.KubernetesObject>[],
  liveness: boolean,
): () => string {
  return () =>
    informers
      .map((i) => (liveness ? i.stalled() : i.staleness()))
      .filter(Boolean)
      .join('; ');
}

/** What the operator runs with, once its manager is built. */
interface OperatorParts {
  kc: k8s.KubeConfig;
  settings: OperatorSettings;
  log: Logger;
  metrics: ControllerMetrics;
}

function startLeaderElection({ kc, settings, log, metrics }: OperatorParts, manager: Manager): LeaderElector {
  const elector = new LeaderElector({
    api: kc.makeApiClient(k8s.CoordinationV1Api),
    namespace: settings.leaseNamespace,
    name: settings.leaseName,
    identity: settings.identity,
    leaseDurationMs: settings.leaseDurationMs,
    renewDeadlineMs: settings.renewDeadlineMs,
    retryPeriodMs: settings.retryPeriodMs,
    log,
    onStartedLeading: () => {
      metrics.setLeader(true);
      for (const c of manager.controllers) c.start();
    },
    onStoppedLeading: async () => {
      metrics.setLeader(false);
      await Promise.all(manager.controllers.map((c) => c.stop()));
    },
  });
  elector.start();
  return elector;
}

function registerStops(lifecycle: Lifecycle, manager: Manager, elector: LeaderElector | undefined): void {
  lifecycle.onStop('informers', async () => {
    manager.keyring.stop();
    await Promise.all(manager.informers.map((i) => i.stop()));
  });
  if (elector) lifecycle.onStop('leader election', () => elector.stop());
  else
    lifecycle.onStop(
      'controllers',
      async () => void (await Promise.all(manager.controllers.map((c) => c.stop()))),
    );
}

export const runOperator: RoleRunner = async ({ log, lifecycle, env, flags }) => {
  const settings = loadOperatorSettings(env, flags);
  const kc = loadKubeConfig(settings.kubeconfig);
  const registry = newRegistry('operator');
  const metrics = new ControllerMetrics(registry);
  countApiRequests(kc, metrics);
  reuseConnections(kc);
  const manager = buildManager(kc, settings, log, metrics);
  const ops = await startOpsServer({
    port: settings.metricsPort,
    registry,
    log,
    readiness: { informers: informerCheck(manager.informers, false) },
    liveness: { informers: informerCheck(manager.informers, true) },
  });
  lifecycle.onStop('ops server', () => ops.close());
  for (const informer of manager.informers) informer.start();
  log.info(
    {
      identity: settings.identity,
      leaderElection: settings.leaderElection,
      namespace: settings.watchNamespace ?? '(all)',
    },
    'operator starting',
  );
  let elector: LeaderElector | undefined;
  if (settings.leaderElection) {
    elector = startLeaderElection({ kc, settings, log, metrics }, manager);
    const leaseLimitMs = settings.leaseDurationMs;
    ops.addReadiness('leader-election', () =>
      elector && elector.contactAgeMs() > leaseLimitMs
        ? `lease API unreachable for ${elector.contactAgeMs()} ms`
        : '',
    );
  } else {
    metrics.setLeader(true);
    for (const c of manager.controllers) c.start();
  }
  registerStops(lifecycle, manager, elector);
};
