// `platform run gateway`: reads its environment, builds the attestation
// agent, the auditor registry, the policy source and the pipeline, serves
// HTTP and stops gracefully (stop accepting, drain Evidence delivery).
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { createAttestationAgent, type AttestationAgent } from '../attestation/agent.ts';
import { closeGracefully, HTTP_GRACE_MS } from '../base/close.ts';
import { newRegistry } from '../base/ops-server.ts';
import type { RoleRunner } from '../base/role.ts';
import { loadGatewaySettings, parseChain } from './config.ts';
import { EvidenceForwarder } from './forwarder.ts';
import { Pipeline } from './pipeline.ts';
import {
  defaultPolicySource,
  filePolicySource,
  verifierPolicySource,
  type PolicySource,
} from './policy-source.ts';
import { AuditorRegistry } from './registry.ts';
import { startGatewayServer } from './server.ts';
import { WorkloadIdentity } from './identity.ts';
import type { Registry } from 'prom-client';
import type { Logger } from '../base/log.ts';

type GatewaySettings = ReturnType<typeof loadGatewaySettings>;

/** A file, else the policy the operator named, else (no AuditorPolicy governs the agent) the built-in default. */
function policySourceOf(s: GatewaySettings, registry: AuditorRegistry): PolicySource {
  if (s.policyFile) return filePolicySource(s.policyFile);
  if (s.verifierUrl && s.policyId) return verifierPolicySource(s.verifierUrl, s.policyId, s.apiKey);
  return defaultPolicySource(() => registry.list());
}

function attestationAgentOf(s: GatewaySettings): AttestationAgent {
  return createAttestationAgent({
    provider: s.teeProvider as 'MOCK' | 'COCO',
    ...(s.keyFile ? { keyFile: s.keyFile } : {}),
    coco: { baseUrl: s.cocoUrl },
  });
}

/** The auditor chain from the settings, calling out with the gateway's own TLS material. */
function registryOf(s: GatewaySettings, context: Parameters<RoleRunner>[0]): AuditorRegistry {
  const tls = {
    ...(s.tlsCert ? { cert: s.tlsCert } : {}),
    ...(s.tlsKey ? { key: s.tlsKey } : {}),
    ...(s.tlsCa ? { ca: s.tlsCa } : {}),
  };
  return new AuditorRegistry(parseChain(s.chain), {
    tls,
    env: context.env,
    timeoutMs: s.auditorTimeout,
    log: context.log,
    ...(s.verifierUrl ? { verifierUrl: s.verifierUrl } : {}),
    ...(s.apiKey ? { apiKey: s.apiKey } : {}),
  });
}

function pipelineOf(
  s: GatewaySettings,
  parts: { registry: AuditorRegistry; policy: PolicySource; agent: AttestationAgent },
): Pipeline {
  return new Pipeline({
    agentId: s.agentId,
    workspaceId: s.workspaceId,
    sessionId: s.sessionId,
    attesterId: s.attesterId ?? `gateway/${s.agentId || hostname()}`,
    auditMode: s.auditMode as 'enforce' | 'observe',
    timeoutMs: s.auditorTimeout,
    auditors: () => parts.registry.list(),
    policy: parts.policy,
    agent: parts.agent,
  });
}

/** The workload identity client, when the pod has an SVID directory and a token endpoint. */
function identityOf(s: GatewaySettings, log: Logger, metrics: Registry): WorkloadIdentity | undefined {
  const tokenUrl =
    s.tokenUrl ?? (s.verifierUrl ? `${s.verifierUrl.replace(/\/+$/, '')}/oauth/token` : undefined);
  if (!s.svidDir || !tokenUrl) return undefined;
  return new WorkloadIdentity({ svidDir: s.svidDir, tokenUrl, log, metrics });
}

export const runGateway: RoleRunner = async (context) => {
  const s = loadGatewaySettings(context.env, context.flags);
  const log = context.log;
  const agent = attestationAgentOf(s);
  const registry = registryOf(s, context);
  const policy = policySourceOf(s, registry);
  await Promise.all([policy.refresh(), registry.refreshVocabularies()]);
  const refresher = setInterval(() => void policy.refresh(), s.policyRefresh);
  refresher.unref();
  const pipeline = pipelineOf(s, { registry, policy, agent });
  const forwarder = new EvidenceForwarder(s.verifierUrl, s.apiKey, log);
  const metrics = newRegistry('gateway');
  const identity = identityOf(s, log, metrics);
  identity?.start();
  const server = await startGatewayServer(
    {
      pipeline,
      registry,
      forwarder,
      metrics,
      log,
      ...(s.apiKey ? { apiKey: s.apiKey } : {}),
      ...(s.modelUrl ? { modelUrl: s.modelUrl } : {}),
      maxBodyBytes: s.maxBodyBytes,
      readiness: () => [registry.readiness(), pipeline.readiness()].filter(Boolean).join('; '),
    },
    s.port,
    s.host,
  );
  log.info(
    {
      port: (server.address() as AddressInfo).port,
      auditMode: s.auditMode,
      policyId: s.policyId,
      chain: registry.list().map((a) => a.id),
      keyId: agent.binding().key_id,
    },
    'gateway listening',
  );
  context.lifecycle.onStop('gateway http server', async () => {
    clearInterval(refresher);
    identity?.stop();
    await closeGracefully(server, HTTP_GRACE_MS);
  });
  context.lifecycle.onStop('evidence delivery', () => forwarder.drain(5000));
};
