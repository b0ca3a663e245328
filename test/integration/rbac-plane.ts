// A control plane of its own for the RBAC proof (test/integration/rbac-minimal.test.ts):
// kube-apiserver with an audit log of every request (level Metadata), config/crds and
// config/rbac applied as `kubectl apply --server-side` would, and one kubeconfig per
// role that impersonates the role's ServiceAccount. Its own, not the shared one: the
// roles run cluster-wide as in a real install, and the webhook configurations of
// config/webhook are cluster-wide objects no other test file should meet.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { k8s, loadKubeConfig } from '../../base/kube.ts';
import { startControlPlane, type ControlPlane } from '../../hack/control-plane/control-plane.ts';
import { findBinary } from '../../hack/control-plane/paths.ts';
import type { K8sObject } from '../unit/kustomize-tree.ts';
import { parseAuditLog, type AuditEvent } from '../unit/rbac-coverage.ts';

export interface AuditedPlane {
  plane: ControlPlane;
  /** The admin's (system:masters) client. */
  admin: k8s.KubeConfig;
  auditLogPath: string;
  /** Every request the apiserver has logged so far, one event per request. */
  audit(): AuditEvent[];
  /** A client, and a kubeconfig file, acting as `user` (Impersonate-User on every request). */
  impersonating(user: string): { kc: k8s.KubeConfig; path: string };
  /** `kubectl apply --server-side` of `objects` as the admin. */
  apply(objects: K8sObject[]): void;
}

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
`;

export async function startAuditedPlane(log: (line: string) => void): Promise<AuditedPlane> {
  const dir = mkdtempSync(join(tmpdir(), 'rbac-audit-'));
  const policyPath = join(dir, 'policy.yaml');
  const auditLogPath = join(dir, 'audit.jsonl');
  writeFileSync(policyPath, POLICY);
  const plane = await startControlPlane({
    log,
    apiserverArgs: [
      `--audit-policy-file=${policyPath}`,
      `--audit-log-path=${auditLogPath}`,
      // Written as each request ends, so the test reads every one it made.
      '--audit-log-mode=blocking',
      '--audit-log-maxsize=0',
      // Owner references with blockOwnerDeletion then need update on the owner's finalizers
      // (an admission check, not a request: the audit log shows it only as a refusal).
      '--enable-admission-plugins=NodeRestriction,OwnerReferencesPermissionEnforcement',
    ],
  });
  const admin = loadKubeConfig(plane.kubeconfigPath);
  return {
    plane,
    admin,
    auditLogPath,
    audit: () => parseAuditLog(readFileSync(auditLogPath, 'utf8')),
    impersonating: (user) => impersonatingConfig(admin, user, dir),
    apply: (objects) => applyServerSide(plane.kubeconfigPath, objects),
  };
}

function impersonatingConfig(
  admin: k8s.KubeConfig,
  user: string,
  dir: string,
): { kc: k8s.KubeConfig; path: string } {
  const current = admin.getCurrentUser();
  if (!current) throw new Error('the admin kubeconfig has no current user');
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: admin.getClusters(),
    users: [{ ...current, name: 'impersonated', impersonateUser: user }],
    contexts: [{ name: 'impersonated', cluster: admin.getCurrentCluster()!.name, user: 'impersonated' }],
    currentContext: 'impersonated',
  });
  const path = join(dir, `${user.replaceAll(':', '_')}.kubeconfig`);
  writeFileSync(path, kc.exportConfig(), { mode: 0o600 });
  return { kc, path };
}

function applyServerSide(kubeconfigPath: string, objects: K8sObject[]): void {
  const kubectl = findBinary('kubectl');
  if (!kubectl) throw new Error('kubectl is not built (npm run control-plane:build)');
  const run = spawnSync(
    kubectl,
    ['--kubeconfig', kubeconfigPath, 'apply', '--server-side', '--field-manager=rbac-minimal', '-f', '-'],
    { input: objects.map((o) => stringify(o)).join('---\n'), encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`kubectl apply --server-side: ${run.stderr}`);
}

/** The webhook configurations of config/webhook, calling the webhook role on loopback instead of its Service. */
export function onLoopback(objects: K8sObject[], port: number): K8sObject[] {
  type Hook = { clientConfig: { service?: { path?: string }; url?: string } };
  return objects.map((o) => {
    const hooks = (o as { webhooks?: Hook[] }).webhooks;
    if (!hooks) return o;
    const webhooks = hooks.map((h) => ({
      ...h,
      clientConfig: { url: `https://127.0.0.1:${port}${h.clientConfig.service?.path ?? '/'}` },
    }));
    return { ...o, webhooks };
  });
}
