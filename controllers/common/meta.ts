// Labels, annotations and owner references every controller agrees on, and
// the custom-resource coordinates of the kinds the operator reconciles.
import type * as k8s from '@kubernetes/client-node';
import { ANNOTATION, CHAIN_CONFIGMAP, LABEL } from '../../webhooks/constants.ts';
import type { CustomResourceRef } from '../../base/controller/status-writer.ts';
import { API_VERSION, GROUP, VERSION } from '../../contract/kube.ts';

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'platform-operator';
/** Selects every object the operator made (informers list only these). */
export const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY}`;
// The names the webhook also reads are defined once, in webhooks/constants.ts.
export const AGENT_LABEL = LABEL.agent;
export const ENVIRONMENT_LABEL = 'platform.io/environment';
export const SECURED_LABEL = LABEL.secured;
export const ENABLED_LABEL = LABEL.namespaceEnabled;
export const CHAIN_ANNOTATION = ANNOTATION.auditorChain;
export const AUDIT_MODE_ANNOTATION = ANNOTATION.auditMode;
/** What the agent's Gateway needs, read by the webhook. */
export const POLICY_ID_ANNOTATION = ANNOTATION.policyId;
export const MODEL_URL_ANNOTATION = ANNOTATION.modelUrl;
export const API_KEY_SECRET_ANNOTATION = ANNOTATION.apiKeySecret;
export const AUDITOR_SETTINGS_ANNOTATION = ANNOTATION.auditorSettings;
export const WORKSPACE_ID_ANNOTATION = ANNOTATION.workspaceId;
/** Hash of what the operator last wrote into an object it manages; equal hash, no write. */
export const SPEC_HASH_ANNOTATION = 'platform.io/spec-hash';
export { CHAIN_CONFIGMAP };

export const ref = (plural: string): CustomResourceRef => ({ group: GROUP, version: VERSION, plural });
export const RESOURCES = {
  agent: ref('platformagents'),
  workspace: ref('platformworkspaces'),
  organization: ref('organizations'),
  environment: ref('platformenvironments'),
  grant: ref('delegationgrants'),
  consent: ref('consentrequests'),
  auditor: ref('auditorregistrations'),
  credential: ref('scopedcredentials'),
  policy: ref('auditorpolicies'),
  model: ref('modelregistrations'),
} as const;

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
