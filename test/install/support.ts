// Helpers for the install test: kubectl as a user runs it, the cluster client,
// polling, and the Verifier reached at its ClusterIP (Services answer from the
// host on the local node) with the bootstrap admin key.
import { spawnSync } from 'node:child_process';
import { inject } from 'vitest';
import { findBinary } from '../../hack/control-plane/paths.ts';
import { k8s, loadKubeConfig } from '../../base/kube.ts';
import { eventually as pollUntil } from '../integration/harness.ts';

export const NAMESPACE = 'platform-system';
export const kubeconfigPath = (): string => inject('installKubeconfig');
export const kubeConfig = (): k8s.KubeConfig => loadKubeConfig(kubeconfigPath());

/** Runs kubectl (the one built with the control plane); throws with its stderr unless it succeeds. */
export function kubectl(args: string[], timeoutMs = 300_000): string {
  const bin = findBinary('kubectl');
  if (!bin) throw new Error('kubectl not built: npm run control-plane:build');
  const r = spawnSync(bin, ['--kubeconfig', kubeconfigPath(), ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

export const kubectlJson = <T>(args: string[]): T => JSON.parse(kubectl([...args, '-o', 'json'])) as T;

export function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 180_000,
): Promise<T> {
  return pollUntil(probe, what, timeoutMs);
}

let verifier: { url: string; key: string } | undefined;

/** Forgets the Verifier's address and key: a new install has new ones. */
export function forgetVerifier(): void {
  verifier = undefined;
}

async function verifierAccess(): Promise<{ url: string; key: string }> {
  if (verifier) return verifier;
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const svc = await core.readNamespacedService({ name: 'platform-verifier', namespace: NAMESPACE });
  const secret = await eventually(
    () => core.readNamespacedSecret({ name: 'platform-api-bootstrap', namespace: NAMESPACE }),
    'the bootstrap API key',
  );
  verifier = {
    url: `http://${svc.spec?.clusterIP}:8000`,
    key: Buffer.from(secret.data?.['api-key'] ?? '', 'base64').toString('utf8'),
  };
  return verifier;
}

/** A call to the installed Verifier API as its bootstrap administrator. */
export async function api<T>(path: string): Promise<{ status: number; body: T }> {
  const { url, key } = await verifierAccess();
  const res = await fetch(`${url}${path}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Seconds since `started`, one decimal: what the install and the samples took. */
export const secondsSince = (started: number): string => ((Date.now() - started) / 1000).toFixed(1);
