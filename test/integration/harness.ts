// Helpers for integration test files: a client for the local control plane
// and a namespace of the file's own, labelled so webhooks registered by this
// file only see this file's objects.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { k8s, loadKubeConfig } from '../../operator/kube.ts';

export function kubeConfig(): k8s.KubeConfig {
  return loadKubeConfig(inject('kubeconfigPath'));
}

export const TEST_FILE_LABEL = 'platform.io/test-file';

export interface TestNamespace {
  /** Set in beforeAll. */
  name: string;
  /** Value of the TEST_FILE_LABEL label on the namespace. */
  fileId: string;
}

/**
 * Creates a fresh namespace for this test file before its tests and deletes
 * it afterwards. Extra labels (e.g. `platform.computing/enabled`) are applied.
 */
export function useNamespace(prefix: string, labels: Record<string, string> = {}): TestNamespace {
  const ns: TestNamespace = { name: '', fileId: `${prefix}-${randomBytes(3).toString('hex')}` };
  beforeAll(async () => {
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    ns.name = ns.fileId;
    await core.createNamespace({
      body: { metadata: { name: ns.name, labels: { ...labels, [TEST_FILE_LABEL]: ns.fileId } } },
    });
  });
  afterAll(async () => {
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    await core.deleteNamespace({ name: ns.name }).catch(() => undefined);
  });
  return ns;
}

/** Polls `probe` until it returns a defined value or the timeout passes. */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
