// Workflow custom resources, read and written at the apiserver (not a cache):
// they change rarely, and deploy must see the graph as it is now. `namespace`
// limits the store to one namespace (PLATFORM_WATCH_NAMESPACE).
import * as k8s from '@kubernetes/client-node';
import type { Workflow, WorkflowStatus } from '../../crds/generated/types.ts';
import { apiStatus, orUndefinedOn404 } from '../../base/kube.ts';
import { conflict, notFound } from '../../base/http-error.ts';
import { RESOURCES } from '../../contract/kube.ts';

const REF = RESOURCES.workflow;
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

export interface WorkflowStore {
  list(): Promise<Workflow[]>;
  read(namespace: string, name: string): Promise<Workflow | undefined>;
  create(wf: Workflow): Promise<Workflow>;
  /** Replaces with the object's resourceVersion: a concurrent change is a 409. */
  replace(wf: Workflow): Promise<Workflow>;
  /** A JSON merge patch on `/status`. */
  mergeStatus(wf: Workflow, status: WorkflowStatus): Promise<Workflow>;
  /** Deletes in the background: the garbage collector then deletes the agents it owns. */
  delete(wf: Workflow): Promise<void>;
}

export function kubeWorkflows(kc: k8s.KubeConfig, namespace?: string): WorkflowStore {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const ref = (wf: Workflow) => ({
    ...REF,
    namespace: wf.metadata.namespace ?? '',
    name: wf.metadata.name ?? '',
  });
  return {
    list: async () => {
      const list = (await (namespace
        ? api.listNamespacedCustomObject({ ...REF, namespace })
        : api.listClusterCustomObject(REF))) as { items?: Workflow[] };
      return list.items ?? [];
    },
    read: (ns, name) =>
      namespace && ns !== namespace
        ? Promise.resolve(undefined)
        : orUndefinedOn404<Workflow>(api.getNamespacedCustomObject({ ...REF, namespace: ns, name })),
    create: async (wf) =>
      (await api.createNamespacedCustomObject({
        ...REF,
        namespace: wf.metadata.namespace ?? '',
        body: wf,
      })) as Workflow,
    replace: async (wf) => (await api.replaceNamespacedCustomObject({ ...ref(wf), body: wf })) as Workflow,
    mergeStatus: async (wf, status) =>
      (await api.patchNamespacedCustomObjectStatus({ ...ref(wf), body: { status } }, MERGE)) as Workflow,
    delete: async (wf) => {
      // The uid precondition: a Workflow recreated under the same name meanwhile is not deleted.
      const body = { propagationPolicy: 'Background', preconditions: { uid: wf.metadata.uid ?? '' } };
      await orUndefinedOn404(api.deleteNamespacedCustomObject({ ...ref(wf), body }));
    },
  };
}

/** Read-modify-write with the resourceVersion; on a conflict the edit repeats on the fresh Workflow. */
export async function editWorkflow(
  store: WorkflowStore,
  first: Workflow,
  edit: (fresh: Workflow) => Workflow,
  attempts = 4,
): Promise<Workflow> {
  let current: Workflow | undefined = first;
  for (let i = 0; i < attempts && current; i++) {
    try {
      return await store.replace(edit(structuredClone(current)));
    } catch (err) {
      if (apiStatus(err) !== 409) throw err;
    }
    current = await store.read(first.metadata.namespace ?? '', first.metadata.name ?? '');
  }
  if (!current) throw notFound(`no workflow ${first.metadata.namespace}.${first.metadata.name}`);
  throw conflict('the workflow kept changing while this request was applied; retry');
}
