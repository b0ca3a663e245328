// Maps an event of an owned object (a pod, a Secret, a child custom resource)
// to the key of the object that owns it, the key its controller reconciles.
import type { KubernetesObject } from '@kubernetes/client-node';

export type OwnerKeys = (obj: KubernetesObject) => string[];

export type OwnerLink =
  /** The owner's name is this label's value; the owner lives in the object's namespace. */
  | { label: string }
  /** The owner is the controller owner reference of this kind, in the object's namespace. */
  | { ownerKind: string };

export function ownerKeys(link: OwnerLink): OwnerKeys {
  return (obj) => {
    const namespace = obj.metadata?.namespace;
    if (!namespace) return [];
    const name = ownerName(obj, link);
    return name ? [`${namespace}/${name}`] : [];
  };
}

function ownerName(obj: KubernetesObject, link: OwnerLink): string | undefined {
  if ('label' in link) return obj.metadata?.labels?.[link.label] || undefined;
  const owner = (obj.metadata?.ownerReferences ?? []).find(
    (r) => r.controller === true && r.kind === link.ownerKind,
  );
  return owner?.name || undefined;
}
