// Small helpers for the controller integration tests: create, read and patch
// platform resources and core objects of one namespace on the test control plane.
import { ALL_KINDS } from '../../crds/index.ts';
import { k8s } from '../../base/kube.ts';
import { kubeConfig } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

export const API_VERSION = `${GROUP}/${VERSION}`;
export const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

export interface Cond {
  type: string;
  status: string;
  reason: string;
  message?: string;
  observedGeneration?: number;
}

export interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: k8s.V1ObjectMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown> & { phase?: string; conditions?: Cond[] };
}

const plural = (kind: string): string => ALL_KINDS.find((k) => k.kind === kind)?.plural ?? kind;

const CLUSTER_SCOPED = new Set(ALL_KINDS.filter((k) => k.scope === 'Cluster').map((k) => k.kind));

const ref = (kind: string) => ({ group: GROUP, version: VERSION, plural: plural(kind) });

export class Platform {
  readonly custom = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  readonly core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  readonly apps = kubeConfig().makeApiClient(k8s.AppsV1Api);
  readonly events = kubeConfig().makeApiClient(k8s.EventsV1Api);

  constructor(readonly namespace: () => string) {}

  async create(
    kind: string,
    name: string,
    spec: Record<string, unknown>,
    metadata: k8s.V1ObjectMeta = {},
  ): Promise<Obj> {
    const body = { apiVersion: API_VERSION, kind, metadata: { ...metadata, name }, spec };
    if (CLUSTER_SCOPED.has(kind)) {
      return (await this.custom.createClusterCustomObject({ ...ref(kind), body })) as Obj;
    }
    return (await this.custom.createNamespacedCustomObject({
      ...ref(kind),
      namespace: this.namespace(),
      body,
    })) as Obj;
  }

  async get(kind: string, name: string): Promise<Obj | undefined> {
    try {
      if (CLUSTER_SCOPED.has(kind))
        return (await this.custom.getClusterCustomObject({ ...ref(kind), name })) as Obj;
      return (await this.custom.getNamespacedCustomObject({
        ...ref(kind),
        namespace: this.namespace(),
        name,
      })) as Obj;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  }

  async patch(kind: string, name: string, body: Record<string, unknown>): Promise<void> {
    if (kind === 'Organization') {
      await this.custom.patchClusterCustomObject({ ...ref(kind), name, body }, mergePatch);
      return;
    }
    await this.custom.patchNamespacedCustomObject(
      { ...ref(kind), namespace: this.namespace(), name, body },
      mergePatch,
    );
  }

  async patchStatus(kind: string, name: string, status: Record<string, unknown>): Promise<void> {
    await this.custom.patchNamespacedCustomObjectStatus(
      { ...ref(kind), namespace: this.namespace(), name, body: { status } },
      mergePatch,
    );
  }

  async delete(kind: string, name: string): Promise<void> {
    if (CLUSTER_SCOPED.has(kind)) {
      await this.custom.deleteClusterCustomObject({ ...ref(kind), name }).catch(() => undefined);
      return;
    }
    await this.custom.deleteNamespacedCustomObject({ ...ref(kind), namespace: this.namespace(), name });
  }

  /** The object when its status.phase is `phase`, else undefined (for `eventually`). */
  async inPhase(kind: string, name: string, phase: string): Promise<Obj | undefined> {
    const obj = await this.get(kind, name);
    return obj?.status?.phase === phase ? obj : undefined;
  }

  /** The object when condition `type` has `status` (and `reason`, if given). */
  async withCondition(
    kind: string,
    name: string,
    { type, status, reason }: { type: string; status: string; reason?: string | undefined },
  ): Promise<Obj | undefined> {
    const obj = await this.get(kind, name);
    const c = condition(obj, type);
    return c && c.status === status && (reason === undefined || c.reason === reason) ? obj : undefined;
  }

  async pod(name: string): Promise<k8s.V1Pod | undefined> {
    return this.core.readNamespacedPod({ namespace: this.namespace(), name }).catch(() => undefined);
  }

  /**
   * Writes the pod's phase through the real `pods/status` subresource (no
   * kubelet runs here), with the Ready condition a kubelet would set: True
   * when Running, unless `ready` says otherwise.
   */
  async setPodPhase(name: string, phase: string, ready = phase === 'Running'): Promise<void> {
    const conditions = [{ type: 'Ready', status: ready ? 'True' : 'False' }];
    await this.core.patchNamespacedPodStatus(
      { namespace: this.namespace(), name, body: { status: { phase, conditions } } },
      mergePatch,
    );
  }

  async eventReasons(name: string): Promise<string[]> {
    const list = await this.events.listNamespacedEvent({ namespace: this.namespace() });
    return list.items.filter((e) => e.regarding?.name === name).map((e) => e.reason ?? '');
  }
}

export function condition(obj: Obj | undefined, type: string): Cond | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}

/** The total of every write counter an operator exposes (status, owned objects, events). */
export const WRITE_METRICS: [string, Record<string, string>][] = [
  ['platform_controller_status_writes_total', { outcome: 'written' }],
  ['platform_controller_object_writes_total', {}],
  ['platform_controller_events_total', {}],
];
