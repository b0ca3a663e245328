// AuditorPolicy custom resources as the policy repository. A record's id is
// `<namespace>.<name>`; its version lives in `spec.version` (bumped on each
// save). Reads go to the apiserver, not a cache: policies are saved rarely,
// and the enforcement check must see the org policies as they are now. The
// admission webhook reads the same resources (through the apiserver) for the
// parents of a changed policy.
import * as k8s from '@kubernetes/client-node';
import type { AuditorPolicy } from '../crds/generated/types.ts';
import { orUndefinedOn404 } from '../base/kube.ts';
import { policyRecordOf } from './admission.ts';
import type { PolicyRepository } from './repository.ts';
import type { PolicyRecord } from './types.ts';
import { API_VERSION, RESOURCES } from '../contract/kube.ts';

const REF = RESOURCES.policy;

function split(id: string): { namespace: string; name: string } {
  const dot = id.indexOf('.');
  return { namespace: id.slice(0, dot), name: id.slice(dot + 1) };
}

/** Every AuditorPolicy (in `namespace` only, when given) as stored. */
export async function listAuditorPolicies(
  api: k8s.CustomObjectsApi,
  namespace?: string,
): Promise<AuditorPolicy[]> {
  const list = (await (namespace
    ? api.listNamespacedCustomObject({ ...REF, namespace })
    : api.listClusterCustomObject(REF))) as { items?: AuditorPolicy[] };
  return list.items ?? [];
}

/** The repository over the apiserver; `namespace` limits it to one namespace (PLATFORM_WATCH_NAMESPACE). */
export function kubePolicies(kc: k8s.KubeConfig, namespace?: string): PolicyRepository {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const read = (id: string): Promise<AuditorPolicy | undefined> => {
    const ref = split(id);
    if (!ref.namespace || !ref.name || (namespace && ref.namespace !== namespace))
      return Promise.resolve(undefined);
    return orUndefinedOn404<AuditorPolicy>(api.getNamespacedCustomObject({ ...REF, ...ref }));
  };
  return {
    list: async () =>
      (await listAuditorPolicies(api, namespace))
        .map(policyRecordOf)
        .sort((a, b) => a.id.localeCompare(b.id)),
    get: async (id) => {
      const found = await read(id);
      return found ? policyRecordOf(found) : undefined;
    },
    put: async (record: PolicyRecord) => {
      const ref = split(record.id);
      const current = await read(record.id);
      const body: AuditorPolicy = {
        apiVersion: API_VERSION,
        kind: 'AuditorPolicy',
        metadata: current ? current.metadata : ref,
        spec: { ...record.spec, version: record.version },
      } as AuditorPolicy;
      const stored = (await (current
        ? api.replaceNamespacedCustomObject({ ...REF, ...ref, body })
        : api.createNamespacedCustomObject({ ...REF, namespace: ref.namespace, body }))) as AuditorPolicy;
      return policyRecordOf(stored);
    },
    delete: async (id) => {
      const ref = split(id);
      return (await orUndefinedOn404(api.deleteNamespacedCustomObject({ ...REF, ...ref }))) !== undefined;
    },
  };
}
