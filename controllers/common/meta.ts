// Owner references: which object the operator made for which owner. The
// names on those objects (labels, annotations, resources) are in contract/.
import type * as k8s from '@kubernetes/client-node';
import { API_VERSION } from '../../contract/kube.ts';

export interface OwnerSubject {
  apiVersion?: string;
  kind: string;
  metadata?: k8s.V1ObjectMeta;
}

/** The controller owner reference: deleting the owner garbage-collects the object. */
export function ownerReference(owner: OwnerSubject): k8s.V1OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? API_VERSION,
    kind: owner.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function isOwnedBy(obj: { metadata?: k8s.V1ObjectMeta }, owner: OwnerSubject): boolean {
  return (obj.metadata?.ownerReferences ?? []).some((r) => r.uid === owner.metadata?.uid);
}
