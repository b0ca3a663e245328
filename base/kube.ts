// Kubernetes client plumbing shared by every role: loading a kubeconfig,
// installing the CRDs, and reading ApiException errors.
import * as k8s from '@kubernetes/client-node';
import { ALL_KINDS } from '../crds/index.ts';
import { crdName, toCustomResourceDefinition } from '../crds/kit.ts';

export { k8s };

/** `$KUBECONFIG` (or an explicit path), else in-cluster, else ~/.kube/config. */
export function loadKubeConfig(path?: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  if (path) kc.loadFromFile(path);
  else kc.loadFromDefault();
  return kc;
}

/** HTTP status of a client-node error, or undefined for non-API errors. */
export function apiStatus(err: unknown): number | undefined {
  if (
    err &&
    typeof err === 'object' &&
    'code' in err &&
    typeof (err as { code: unknown }).code === 'number'
  ) {
    return (err as { code: number }).code;
  }
  return undefined;
}

/** The call's result, or undefined when the apiserver answers 404; other errors are rethrown. */
export async function orUndefinedOn404<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (apiStatus(err) === 404) return undefined;
    throw err;
  }
}

/**
 * Runs a create call; resolves true when it created the object and false when
 * the object already existed (409), for creates that several replicas race on.
 */
export async function createUnlessExists(call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (err) {
    if (apiStatus(err) === 409) return false;
    throw err;
  }
}

/** The apiserver's message from an ApiException body, without echoing request data. */
export function apiMessage(err: unknown): string {
  const body = (err as { body?: unknown })?.body;
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as { message?: string };
      if (parsed.message) return parsed.message;
    } catch {
      /* not JSON */
    }
  }
  return (err as Error)?.message ?? String(err);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Creates or updates every platform CRD with server-side apply and waits until
 * each is Established. Idempotent.
 */
export async function installCrds(kc: k8s.KubeConfig, timeoutMs = 60_000): Promise<string[]> {
  const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
  const names: string[] = [];
  for (const def of ALL_KINDS) {
    const body = toCustomResourceDefinition(def) as unknown as k8s.V1CustomResourceDefinition;
    try {
      await ext.patchCustomResourceDefinition(
        { name: crdName(def), body, fieldManager: 'platform-operator', force: true },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
      );
    } catch (err) {
      throw new Error(`installing CRD ${crdName(def)}: ${apiMessage(err)}`, { cause: err });
    }
    names.push(crdName(def));
  }
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      const crd = await ext.readCustomResourceDefinition({ name });
      const established = crd.status?.conditions?.some(
        (c) => c.type === 'Established' && c.status === 'True',
      );
      if (established) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs} ms`);
      await sleep(100);
    }
  }
  return names;
}

/** The apiserver's version, e.g. `v1.34.4`. */
export async function serverVersion(kc: k8s.KubeConfig): Promise<string> {
  const info = await kc.makeApiClient(k8s.VersionApi).getCode();
  return info.gitVersion;
}
