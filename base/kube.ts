// Kubernetes client plumbing shared by every role: loading a kubeconfig,
// installing the CRDs, and reading ApiException errors.
import * as k8s from '@kubernetes/client-node';

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

/** The apiserver's version, e.g. `v1.34.4`. */
export async function serverVersion(kc: k8s.KubeConfig): Promise<string> {
  const info = await kc.makeApiClient(k8s.VersionApi).getCode();
  return info.gitVersion;
}
