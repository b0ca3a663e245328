// Helpers for e2e files: kubectl as a user runs it, the cluster client, the
// Verifier API with the bootstrap admin key, and polling.
import { spawnSync } from 'node:child_process';
import { inject } from 'vitest';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { verifierUrl } from '../../hack/system/roles.ts';
import { k8s, loadKubeConfig } from '../../base/kube.ts';
import { eventually as pollUntil } from '../integration/harness.ts';

export const kubeconfigPath = (): string => inject('e2eKubeconfig');
export const topology = (): ReturnType<typeof inject<'e2eTopology'>> => inject('e2eTopology');
export const kubeConfig = (): k8s.KubeConfig => loadKubeConfig(kubeconfigPath());

export interface KubectlResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs kubectl (the one built with the control plane) against the e2e cluster. */
export function kubectl(args: string[], input?: string): KubectlResult {
  const bin = findBinary('kubectl');
  if (!bin) throw new Error('kubectl not built: npm run control-plane:build');
  const r = spawnSync(bin, ['--kubeconfig', kubeconfigPath(), ...args], {
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
    timeout: 120_000,
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function kubectlOk(args: string[], input?: string): string {
  const r = kubectl(args, input);
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** The integration harness's poller, with the longer default a real node needs. */
export function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  return pollUntil(probe, what, timeoutMs);
}

let adminKey: string | undefined;

export async function apiKey(): Promise<string> {
  if (adminKey) return adminKey;
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const secret = await eventually(
    () => core.readNamespacedSecret({ name: 'platform-api-bootstrap', namespace: topology().namespace }),
    'the bootstrap API key',
  );
  adminKey = Buffer.from(secret.data?.['api-key'] ?? '', 'base64').toString('utf8');
  return adminKey;
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${verifierUrl(topology())}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${await apiKey()}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** An API key for a human subject (minted by the bootstrap admin), to act as one of an agent's sharers. */
export async function userKey(subject: string): Promise<string> {
  const minted = await api<{ key: string }>('/v1/api-keys', {
    method: 'POST',
    body: JSON.stringify({ subject, role: 'user' }),
  });
  if (minted.status !== 201) throw new Error(`minting a key for ${subject}: ${minted.status}`);
  return minted.body.key;
}
