// The credentials a registration's auth names, read where they live: the
// platform's client certificate from its files (read once at start), an API
// key from the Secret `secretRef` names in the platform's namespace (read per
// request, so a rotated key is used at once). Decision 129.
import { readFileSync } from 'node:fs';
import type * as k8s from '@kubernetes/client-node';
import { orUndefinedOn404 } from './kube.ts';
import {
  apiKeyFromSecret,
  type ClientCertificate,
  type CredentialHolder,
  type EndpointCredentials,
  type RegistrationAuth,
} from './registry-auth.ts';

export interface RegistryCredentials {
  /** The credentials for `holder`'s auth; `problem` when its API key cannot be had (nothing is sent then). */
  resolve(
    holder: CredentialHolder,
    auth: RegistrationAuth | undefined,
  ): Promise<EndpointCredentials & { problem?: string }>;
}

/** No client certificate and no Secret access: requests go without credentials. */
export const NO_CREDENTIALS: RegistryCredentials = { resolve: () => Promise.resolve({}) };

/** The client certificate from its PEM files; undefined when neither is set, an error when only one is. */
export function loadClientCertificate(certFile?: string, keyFile?: string): ClientCertificate | undefined {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new Error('PLATFORM_REGISTRY_CLIENT_CERT and PLATFORM_REGISTRY_CLIENT_KEY are set together');
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

export function kubeRegistryCredentials(
  core: k8s.CoreV1Api,
  namespace: string,
  client: ClientCertificate | undefined,
): RegistryCredentials {
  const base = client ? { client } : {};
  return {
    async resolve(holder, auth) {
      if (auth?.type !== 'api_key' || !auth.secretRef) return base;
      const ref = auth.secretRef;
      let secret: k8s.V1Secret | undefined;
      try {
        secret = await orUndefinedOn404(core.readNamespacedSecret({ namespace, name: ref.name }));
      } catch {
        return { ...base, problem: `the Secret ${ref.name} could not be read` };
      }
      const found = apiKeyFromSecret(secret, ref, holder);
      return 'key' in found ? { ...base, apiKey: found.key } : { ...base, problem: found.problem };
    },
  };
}
