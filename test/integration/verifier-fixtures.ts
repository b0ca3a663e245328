// Helpers for the policy and evidence tests on the real control plane: the
// admission webhook app with /validate-policy registered by URL, signed
// Evidence with chosen auditor channels, and `kubectl` when it was built.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createAttestationAgent } from '../../attestation/agent.ts';
import { signEvidence } from '../../evidence/sign.ts';
import type { AuditorOutcome, Evidence } from '../../evidence/types.ts';
import { k8s } from '../../base/kube.ts';
import { startWebhookApp, type WebhookApp } from '../../webhooks/app.ts';
import { quietLogger, testMutateOptions } from '../../webhooks/testing/fixtures.ts';
import { kubeConfig, registerWebhooks, type TestNamespace } from './harness.ts';

export interface PolicyWebhook {
  app: WebhookApp;
  unregister: () => Promise<void>;
}

/** The webhook app (the real composition) with its /validate-policy registered for AuditorPolicies. */
export async function startPolicyWebhook(ns: TestNamespace, verifierUrl: string): Promise<PolicyWebhook> {
  const configName = (i: number): string => `test-${ns.fileId}-${i}`;
  const app = await startWebhookApp({
    kc: kubeConfig(),
    log: quietLogger(),
    instance: 'policy-test',
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: 4 << 20,
    mutate: testMutateOptions(),
    strictNotarization: false,
    notary: { verifierUrl, timeoutMs: 1000, cacheTtlMs: 60_000, negativeCacheTtlMs: 1000 },
    clusterCacheTtlMs: 0,
    tls: {
      secret: { namespace: ns.name, name: 'webhook-tls' },
      names: { dnsNames: ['platform-webhook.platform-system.svc'], ipAddresses: ['127.0.0.1'] },
      mutatingConfig: configName(9),
      validatingConfig: configName(0),
      manage: true,
      isLeader: () => true,
    },
  });
  const secret = await kubeConfig()
    .makeApiClient(k8s.CoreV1Api)
    .readNamespacedSecret({ namespace: ns.name, name: 'webhook-tls' });
  const unregister = await registerWebhooks(ns, [
    {
      kind: 'validating',
      url: `https://127.0.0.1:${app.server.port}/validate-policy`,
      caBundlePem: Buffer.from(secret.data?.['ca.crt'] ?? '', 'base64').toString(),
      rules: [
        {
          apiGroups: ['platform.io'],
          apiVersions: ['*'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['auditorpolicies'],
        },
      ],
    },
  ]);
  return { app, unregister };
}

const attester = createAttestationAgent({ provider: 'MOCK' });

const outcome = (
  id: string,
  mode: AuditorOutcome['deployment_mode'],
  channel: AuditorOutcome['channel'],
) => ({
  auditor_id: id,
  deployment_mode: mode,
  channel,
  status: 'ok' as const,
  claims: [] as string[],
  latency_ms: 2,
  attempts: 1,
});

/** An outcome that claims to be a pod-local sidecar, as any Gateway can write it. */
export const outcomeOf = (id: string): ReturnType<typeof outcome> => outcome(id, 'sidecar', 'pod_local');

/** A signed Evidence: the built-in injection sidecar (pod-local) and an external auditor reached with an API key. */
export function signedEvidence(
  id: string,
  agentId: string,
  extra: Partial<Evidence> = {},
): Promise<Evidence> {
  return signEvidence(
    {
      schema_version: '2.0.0',
      evidence_id: id,
      attester_id: 'gateway/policy-evidence',
      attester_type: 'gateway',
      agent_id: agentId,
      workspace_id: agentId.split('.')[0]!,
      trace_id: `trace-${id}`,
      claims: [
        { name: 'injection_detected', type: 'boolean', value: false },
        { name: 'injection_score', type: 'score_normalized', value: 0.12 },
      ],
      decision: 'allow',
      decision_reasons: [],
      policy_id: `${agentId.split('.')[0]!}.workspace-policy`,
      policy_version: '1',
      phase: 'request',
      audit_mode: 'enforce',
      blocked: false,
      generated_at: new Date().toISOString(),
      auditors: [
        {
          ...outcome('injection', 'sidecar', 'pod_local'),
          claims: ['injection_detected', 'injection_score'],
        },
        outcome('ext-scanner', 'external', 'api_key'),
      ],
      attestation: attester.binding(),
      ...extra,
    },
    attester,
  );
}

/** The kubectl built with the control plane, when present (CI builds without it). */
export function kubectlPath(): string | undefined {
  const path = join(homedir(), '.cache', 'agent-platform', 'k8s-1.34.4', 'kubectl');
  return existsSync(path) ? path : undefined;
}

/** `kubectl apply -f -` with `manifest`; resolves with the exit code and output. */
export function kubectlApply(kubectl: string, manifest: unknown): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      kubectl,
      ['--kubeconfig', inject('kubeconfigPath'), 'apply', '-f', '-'],
      { timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
    child.stdin?.end(JSON.stringify(manifest));
  });
}
