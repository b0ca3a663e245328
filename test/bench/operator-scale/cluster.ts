// Cluster plumbing of the operator scale benchmark: the operator's own
// ServiceAccount identity (config/rbac/operator.yaml, applied as is, so the
// benchmark also proves the RBAC is sufficient), a kubeconfig with its token,
// and the operator's peak RSS.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import type { ControlPlane } from '../../../hack/control-plane/control-plane.ts';
import { k8s } from '../../../base/kube.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
export const OPERATOR_NAMESPACE = 'platform-system';

/** Applies config/rbac/operator.yaml and returns a kubeconfig path that authenticates as its ServiceAccount. */
export async function operatorIdentity(kc: k8s.KubeConfig, plane: ControlPlane): Promise<string> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: OPERATOR_NAMESPACE } } });
  const generic = k8s.KubernetesObjectApi.makeApiClient(kc);
  for (const doc of parseAllDocuments(readFileSync(join(ROOT, 'config/rbac/operator.yaml'), 'utf8'))) {
    await generic.create(doc.toJSON() as k8s.KubernetesObject);
  }
  const token = await core.createNamespacedServiceAccountToken({
    name: 'platform-operator',
    namespace: OPERATOR_NAMESPACE,
    body: { spec: { audiences: [], expirationSeconds: 7200 } },
  });
  const path = join(plane.dir, 'operator-kubeconfig.yaml');
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'local',
          cluster: {
            server: plane.server,
            'certificate-authority-data': Buffer.from(plane.certs.ca.certPem).toString('base64'),
          },
        },
      ],
      users: [{ name: 'operator', user: { token: token.status?.token } }],
      contexts: [{ name: 'local', context: { cluster: 'local', user: 'operator' } }],
      'current-context': 'local',
    }),
  );
  return path;
}

/** Peak resident set (VmHWM) of a process, in MB. */
export function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU seconds (user + system) a process used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0); // utime, stime (fields 14 and 15)
  return ticks / 100;
}
