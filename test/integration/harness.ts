// Helpers for integration test files: a client for the local control plane
// and a namespace of the file's own, labelled so webhooks registered by this
// file only see this file's objects.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { k8s, loadKubeConfig } from '../../base/kube.ts';

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

/** The apiserver's answer body when `p` is refused, else ''. */
export async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return String((err as { body?: string }).body ?? err);
  }
  return '';
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

export interface TestWebhook {
  kind: 'mutating' | 'validating';
  /** e.g. `https://127.0.0.1:9443/mutate` */
  url: string;
  caBundlePem: string;
  rules: k8s.V1RuleWithOperations[];
  failurePolicy?: 'Fail' | 'Ignore';
  /** Extra object selector; the namespace selector is always this file's namespace. */
  objectSelector?: k8s.V1LabelSelector;
  timeoutSeconds?: number;
}

/**
 * Registers admission webhooks that only see objects in namespaces carrying
 * this test file's label, so a file that stops or breaks its webhook cannot
 * affect any other file. Returns a function that removes them.
 */
export async function registerWebhooks(
  ns: TestNamespace,
  hooks: TestWebhook[],
): Promise<() => Promise<void>> {
  const adm = kubeConfig().makeApiClient(k8s.AdmissionregistrationV1Api);
  const created: { kind: TestWebhook['kind']; name: string }[] = [];
  for (const [i, hook] of hooks.entries()) {
    const name = `test-${ns.fileId}-${i}`;
    const common = {
      name: `${hook.kind}-${i}.${ns.fileId}.test.platform.io`,
      clientConfig: { url: hook.url, caBundle: Buffer.from(hook.caBundlePem).toString('base64') },
      rules: hook.rules,
      failurePolicy: hook.failurePolicy ?? 'Fail',
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      timeoutSeconds: hook.timeoutSeconds ?? 5,
      namespaceSelector: { matchLabels: { [TEST_FILE_LABEL]: ns.fileId } },
      ...(hook.objectSelector ? { objectSelector: hook.objectSelector } : {}),
    };
    if (hook.kind === 'mutating') {
      await adm.createMutatingWebhookConfiguration({
        body: { metadata: { name }, webhooks: [{ ...common, reinvocationPolicy: 'IfNeeded' }] },
      });
    } else {
      await adm.createValidatingWebhookConfiguration({ body: { metadata: { name }, webhooks: [common] } });
    }
    created.push({ kind: hook.kind, name });
  }
  return async () => {
    for (const { kind, name } of created) {
      const del =
        kind === 'mutating'
          ? adm.deleteMutatingWebhookConfiguration({ name })
          : adm.deleteValidatingWebhookConfiguration({ name });
      await del.catch(() => undefined);
    }
  };
}
