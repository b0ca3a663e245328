// Work-queue keys: `namespace/name` for namespaced objects, `name` otherwise,
// as client-go's MetaNamespaceKeyFunc.
import type { KubernetesObject } from '@kubernetes/client-node';

export function objectKey(obj: KubernetesObject): string {
  const name = obj.metadata?.name ?? '';
  const namespace = obj.metadata?.namespace;
  return namespace ? `${namespace}/${name}` : name;
}

export function splitKey(key: string): { namespace?: string; name: string } {
  const slash = key.indexOf('/');
  if (slash < 0) return { name: key };
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
