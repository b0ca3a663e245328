// The credentials a registration's auth names, read where they live: the
// platform's client certificate from its files, an API key from the Secret
// `secretRef` names in the platform's namespace. Both are read per request,
// so a rotated key or certificate is used at once (decisions 129, 136).
import { readFile } from 'node:fs/promises';
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
  /** The credentials for `holder`'s auth; `problem` when its API key or the client certificate cannot be had (nothing is sent then). */
  resolve(
    holder: CredentialHolder,
    auth: RegistrationAuth | undefined,
  ): Promise<EndpointCredentials & { problem?: string }>;
}

/** No client certificate and no Secret access: requests go without credentials. */
export const NO_CREDENTIALS: RegistryCredentials = { resolve: () => Promise.resolve({}) };

/** The PEM files of the platform's client certificate (PLATFORM_REGISTRY_CLIENT_CERT and _KEY). */
export interface ClientCertificateFiles {
  cert: string;
  key: string;
}

/** The client certificate's files; undefined when neither is set, an error when only one is. */
export function clientCertificateFiles(
  certFile?: string,
  keyFile?: string,
): ClientCertificateFiles | undefined {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new Error('PLATFORM_REGISTRY_CLIENT_CERT and PLATFORM_REGISTRY_CLIENT_KEY are set together');
  return { cert: certFile, key: keyFile };
}

/**
 * The client certificate as its files hold it now. Files that do not exist
 * mean none: the Deployments mount its Secret as optional, so a platform
 * without one starts, and one created later is presented without a restart.
 */
export async function readClientCertificate(
  files: ClientCertificateFiles | undefined,
): Promise<{ client?: ClientCertificate; problem?: string }> {
  if (!files) return {};
  try {
    const [cert, key] = await Promise.all([readFile(files.cert, 'utf8'), readFile(files.key, 'utf8')]);
    return { client: { cert, key } };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') return {};
    return { problem: `the platform’s client certificate could not be read (${code ?? 'unknown error'})` };
  }
}

export function kubeRegistryCredentials(
  core: k8s.CoreV1Api,
  namespace: string,
  clientFiles: ClientCertificateFiles | undefined,
): RegistryCredentials {
  return {
    async resolve(holder, auth) {
      if (auth?.type === 'mtls') return readClientCertificate(clientFiles);
      if (auth?.type !== 'api_key' || !auth.secretRef) return {};
      const ref = auth.secretRef;
      let secret: k8s.V1Secret | undefined;
      try {
        secret = await orUndefinedOn404(core.readNamespacedSecret({ namespace, name: ref.name }));
      } catch {
        return { problem: `the Secret ${ref.name} could not be read` };
      }
      const found = apiKeyFromSecret(secret, ref, holder);
      return 'key' in found ? { apiKey: found.key } : { problem: found.problem };
    },
  };
}
