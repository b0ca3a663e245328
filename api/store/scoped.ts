// The apiserver side of scoped credentials and tool installs: the objects,
// read fresh (a cascade decision must not rest on a stale cache), and the
// Secrets holding credential material (already encrypted by the caller).
import * as k8s from '@kubernetes/client-node';
import type { ScopedCredential, ScopedToolInstall } from '../../crds/generated/types.ts';
import { orUndefinedOn404 } from '../../base/kube.ts';
import { PLURAL, resourceOf } from '../../contract/kube.ts';

const CREDENTIALS = resourceOf(PLURAL.credential);
const TOOL_INSTALLS = resourceOf(PLURAL.toolInstall);
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

export interface ScopedStore {
  listCredentials(namespace: string): Promise<ScopedCredential[]>;
  readCredential(namespace: string, name: string): Promise<ScopedCredential | undefined>;
  createCredential(c: ScopedCredential): Promise<ScopedCredential>;
  /** A JSON merge patch on the credential (spec fields). */
  mergeCredential(namespace: string, name: string, patch: Record<string, unknown>): Promise<ScopedCredential>;
  mergeCredentialStatus(namespace: string, name: string, status: Record<string, unknown>): Promise<void>;
  deleteCredential(namespace: string, name: string): Promise<boolean>;
  readToolInstall(namespace: string, name: string): Promise<ScopedToolInstall | undefined>;
  /** Creates the install, or replaces it when it carries a resourceVersion. */
  applyToolInstall(t: ScopedToolInstall): Promise<ScopedToolInstall>;
  deleteToolInstall(namespace: string, name: string): Promise<boolean>;
  /** Creates the Secret, or replaces its data when one of that name exists. */
  putSecret(secret: k8s.V1Secret): Promise<void>;
  deleteSecret(namespace: string, name: string): Promise<boolean>;
  /** One key of a Secret, decoded (still encrypted when the API wrote it); undefined when either is missing. */
  readSecretValue(namespace: string, name: string, key: string): Promise<string | undefined>;
}

function credentialStore(
  api: k8s.CustomObjectsApi,
): Omit<
  ScopedStore,
  | 'readToolInstall'
  | 'applyToolInstall'
  | 'deleteToolInstall'
  | 'putSecret'
  | 'deleteSecret'
  | 'readSecretValue'
> {
  return {
    listCredentials: async (namespace) =>
      ((await api.listNamespacedCustomObject({ ...CREDENTIALS, namespace })) as { items: ScopedCredential[] })
        .items,
    readCredential: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...CREDENTIALS, namespace, name })),
    createCredential: async (c) =>
      (await api.createNamespacedCustomObject({
        ...CREDENTIALS,
        namespace: c.metadata.namespace ?? '',
        body: c,
      })) as ScopedCredential,
    mergeCredential: async (namespace, name, body) =>
      (await api.patchNamespacedCustomObject(
        { ...CREDENTIALS, namespace, name, body },
        MERGE,
      )) as ScopedCredential,
    mergeCredentialStatus: async (namespace, name, status) => {
      await api.patchNamespacedCustomObjectStatus(
        { ...CREDENTIALS, namespace, name, body: { status } },
        MERGE,
      );
    },
    deleteCredential: async (namespace, name) =>
      (await orUndefinedOn404(api.deleteNamespacedCustomObject({ ...CREDENTIALS, namespace, name }))) !==
      undefined,
  };
}

function toolStore(
  api: k8s.CustomObjectsApi,
): Pick<ScopedStore, 'readToolInstall' | 'applyToolInstall' | 'deleteToolInstall'> {
  return {
    readToolInstall: (namespace, name) =>
      orUndefinedOn404(api.getNamespacedCustomObject({ ...TOOL_INSTALLS, namespace, name })),
    applyToolInstall: async (t) => {
      const at = { ...TOOL_INSTALLS, namespace: t.metadata.namespace ?? '', body: t };
      return (await (t.metadata.resourceVersion
        ? api.replaceNamespacedCustomObject({ ...at, name: t.metadata.name ?? '' })
        : api.createNamespacedCustomObject(at))) as ScopedToolInstall;
    },
    deleteToolInstall: async (namespace, name) =>
      (await orUndefinedOn404(api.deleteNamespacedCustomObject({ ...TOOL_INSTALLS, namespace, name }))) !==
      undefined,
  };
}

function secretStore(
  core: k8s.CoreV1Api,
): Pick<ScopedStore, 'putSecret' | 'deleteSecret' | 'readSecretValue'> {
  return {
    putSecret: async (secret) => {
      const namespace = secret.metadata?.namespace ?? '';
      const name = secret.metadata?.name ?? '';
      const existing = await orUndefinedOn404(core.readNamespacedSecret({ namespace, name }));
      if (!existing) {
        await core.createNamespacedSecret({ namespace, body: secret });
        return;
      }
      // `data` is dropped: `stringData` alone is the new content (a replace keeps nothing of the old).
      const body = {
        ...secret,
        metadata: { ...secret.metadata, resourceVersion: existing.metadata?.resourceVersion },
      };
      await core.replaceNamespacedSecret({ namespace, name, body });
    },
    deleteSecret: async (namespace, name) =>
      (await orUndefinedOn404(core.deleteNamespacedSecret({ namespace, name }))) !== undefined,
    readSecretValue: async (namespace, name, key) => {
      const secret = await orUndefinedOn404(core.readNamespacedSecret({ namespace, name }));
      const data = secret?.data?.[key];
      return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
    },
  };
}

export function scopedStore(kc: k8s.KubeConfig): ScopedStore {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  return { ...credentialStore(api), ...toolStore(api), ...secretStore(kc.makeApiClient(k8s.CoreV1Api)) };
}
