// Scoped credentials and tool installs as the API writes and shows them, pure
// (decision 148): ids are `<namespace>.<name>` like agent ids; a workspace's
// `scope_id` is `<namespace>.<workspace>`, an org's its name; object names
// are derived from (scope, scope id, service or tool), so a second create of
// the same thing is the apiserver's 409. The material is envelope-encrypted
// into a Secret of the same name (context `<namespace>/<name>/material`),
// owned by the credential; views carry metadata only, never the material.
import { createHash } from 'node:crypto';
import type * as k8s from '@kubernetes/client-node';
import { encrypt, type Keyring } from '../../base/crypto/envelope.ts';
import { formatAgentId, parseAgentId } from '../../contract/agent-id.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';
import type { ScopedCredential, ScopedToolInstall } from '../../crds/generated/types.ts';
import { authStatusOf, sharingModeOf, type SharingMode } from './credential-cascade.ts';
import { enforcementOf } from './tool-refinement.ts';

export const MATERIAL_KEY = 'material';
export type CascadeScope = 'org' | 'workspace';
export type CredentialType = ScopedCredential['spec']['type'];
/** The credential types whose material is OAuth tokens: reconnected by sign-in, refreshed (decision 301). */
export const OAUTH_TYPES: ReadonlySet<CredentialType> = new Set<CredentialType>([
  'oauth_token',
  'oauth_flow',
]);

/** Where a scoped object lives: its tier (scope and the org or workspace name) and namespace. */
export interface ScopePlace {
  scope: CascadeScope;
  /** The Organization or PlatformWorkspace name (the objects' `spec.scopeId`). */
  name: string;
  /** The org's home namespace, or the workspace's namespace. */
  namespace: string;
}

/** The `scope_id` the API shows: the org's name, or `<namespace>.<workspace>`. */
export const apiScopeId = (p: ScopePlace): string =>
  p.scope === 'org' ? p.name : formatAgentId({ namespace: p.namespace, name: p.name });

/** A workspace `scope_id`'s namespace and name; undefined when malformed. */
export const parseWorkspaceScopeId = (id: string): { namespace: string; name: string } | undefined =>
  parseAgentId(id);

/** A scoped object's id (`<namespace>.<name>`), parsed; undefined when malformed. */
export const parseObjectId = parseAgentId;

export const objectId = (o: { metadata: { namespace?: string; name?: string } }): string =>
  formatAgentId({ namespace: o.metadata.namespace ?? '', name: o.metadata.name ?? '' });

const placeOf = (o: ScopedCredential | ScopedToolInstall): ScopePlace => ({
  scope: o.spec.scope,
  name: o.spec.scopeId,
  namespace: o.metadata.namespace ?? '',
});

/** `<prefix>-<slug of what>-<hash of place and what>`: stable, a valid object name, at most 63 characters. */
export function scopedName(prefix: string, place: ScopePlace, what: string): string {
  const hash = createHash('sha256')
    .update([place.scope, place.name, what].join('\0'))
    .digest('hex')
    .slice(0, 12);
  const slug = what
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return [prefix, slug, hash].filter(Boolean).join('-');
}

export const materialContext = (namespace: string, name: string): string =>
  `${namespace}/${name}/${MATERIAL_KEY}`;

export interface CredentialInput {
  service: string;
  type: CredentialType;
  sharing_mode: SharingMode;
  destinations?: string[];
  /** Whether material comes with it (an `oauth_flow` may be created before its flow ran). */
  hasMaterial: boolean;
}

export function credentialObject(place: ScopePlace, input: CredentialInput): ScopedCredential {
  const name = scopedName('cred', place, input.service);
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'ScopedCredential',
    metadata: { name, namespace: place.namespace, labels: { 'app.kubernetes.io/part-of': 'platform' } },
    spec: {
      scope: place.scope,
      scopeId: place.name,
      service: input.service,
      type: input.type,
      sharingMode: input.sharing_mode,
      ...(input.hasMaterial ? { secretRef: { name, key: MATERIAL_KEY } } : {}),
      ...(input.destinations?.length ? { destinations: input.destinations } : {}),
    },
  };
}

/** The object an encrypted Secret belongs to: deleting it deletes the Secret. */
export interface SecretOwner {
  kind: string;
  name: string;
  uid: string;
}

/** A Secret holding `material` envelope-encrypted, bound to where it lives (the context), owned by `owner`. */
export function encryptedSecret(
  at: { namespace: string; name: string },
  owner: SecretOwner,
  keyring: Keyring,
  material: string,
): k8s.V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      ...at,
      labels: { 'app.kubernetes.io/part-of': 'platform' },
      ownerReferences: [{ apiVersion: `${GROUP}/${VERSION}`, ...owner }],
    },
    stringData: { [MATERIAL_KEY]: encrypt(keyring, material, materialContext(at.namespace, at.name)) },
  };
}

/** The Secret holding `material` for `cred`, encrypted, owned by the credential (it needs the credential's uid). */
export function materialSecret(cred: ScopedCredential, keyring: Keyring, material: string): k8s.V1Secret {
  const namespace = cred.metadata.namespace ?? '';
  const name = cred.spec.secretRef?.name ?? cred.metadata.name ?? '';
  const owner = { kind: 'ScopedCredential', name: cred.metadata.name ?? '', uid: cred.metadata.uid ?? '' };
  return encryptedSecret({ namespace, name }, owner, keyring, material);
}

export interface CredentialView {
  id: string;
  scope: CascadeScope;
  scope_id: string;
  service: string;
  type: CredentialType;
  sharing_mode: SharingMode;
  auth_status: string;
  destinations: string[];
  created_at: string | null;
  last_rotated_at: string | null;
}

const timeOf = (t: unknown): string | null => (t ? new Date(String(t)).toISOString() : null);

/** What the API shows of a credential: metadata, never the material (nor where it is stored). */
export function credentialView(c: ScopedCredential): CredentialView {
  return {
    id: objectId(c),
    scope: c.spec.scope,
    scope_id: apiScopeId(placeOf(c)),
    service: c.spec.service,
    type: c.spec.type,
    sharing_mode: sharingModeOf(c),
    auth_status: authStatusOf(c),
    destinations: c.spec.destinations ?? [],
    created_at: timeOf(c.metadata.creationTimestamp),
    last_rotated_at: timeOf(c.status?.lastRotatedTime),
  };
}

export interface ToolInput {
  tool: string;
  enforcement: ScopedToolInstall['spec']['enforcement'] & string;
  service?: string;
  server_url?: string;
  /** The name of a ScopedCredential in the same namespace. */
  credential_ref?: string;
}

export function toolObject(place: ScopePlace, input: ToolInput, resourceVersion?: string): ScopedToolInstall {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'ScopedToolInstall',
    metadata: {
      name: scopedName('tool', place, input.tool),
      namespace: place.namespace,
      labels: { 'app.kubernetes.io/part-of': 'platform' },
      ...(resourceVersion ? { resourceVersion } : {}),
    },
    spec: {
      scope: place.scope,
      scopeId: place.name,
      tool: input.tool,
      enforcement: input.enforcement,
      ...(input.service ? { service: input.service } : {}),
      ...(input.server_url ? { serverUrl: input.server_url } : {}),
      ...(input.credential_ref ? { credentialRef: input.credential_ref } : {}),
    },
  };
}

export interface ToolView {
  id: string;
  scope: CascadeScope;
  scope_id: string;
  tool: string;
  enforcement: string;
  service: string | null;
  server_url: string | null;
  credential_id: string | null;
  created_at: string | null;
}

export function toolView(t: ScopedToolInstall): ToolView {
  const ns = t.metadata.namespace ?? '';
  return {
    id: objectId(t),
    scope: t.spec.scope,
    scope_id: apiScopeId(placeOf(t)),
    tool: t.spec.tool,
    enforcement: enforcementOf(t),
    service: t.spec.service ?? null,
    server_url: t.spec.serverUrl ?? null,
    credential_id: t.spec.credentialRef ? formatAgentId({ namespace: ns, name: t.spec.credentialRef }) : null,
    created_at: timeOf(t.metadata.creationTimestamp),
  };
}
