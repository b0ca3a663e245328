// Installs the platform's CRDs on a cluster: `npm start`, the integration
// suite and the benchmarks apply them before starting the operator.
import { apiMessage, k8s } from '../base/kube.ts';
import { ALL_KINDS } from './index.ts';
import { crdName, toCustomResourceDefinition } from './kit.ts';
import { FIELD_MANAGER } from '../contract/kube.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function applyCrd(ext: k8s.ApiextensionsV1Api, def: (typeof ALL_KINDS)[number]): Promise<string> {
  const body = toCustomResourceDefinition(def) as unknown as k8s.V1CustomResourceDefinition;
  try {
    await ext.patchCustomResourceDefinition(
      { name: crdName(def), body, fieldManager: FIELD_MANAGER.operator, force: true },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
    );
  } catch (err) {
    throw new Error(`installing CRD ${crdName(def)}: ${apiMessage(err)}`, { cause: err });
  }
  return crdName(def);
}

async function waitEstablished(
  ext: k8s.ApiextensionsV1Api,
  name: string,
  deadline: { at: number; timeoutMs: number },
): Promise<void> {
  for (;;) {
    const crd = await ext.readCustomResourceDefinition({ name });
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
    if (Date.now() > deadline.at)
      throw new Error(`CRD ${name} not Established after ${deadline.timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Creates or updates every platform CRD with server-side apply and waits until
 * each is Established. Idempotent.
 */
export async function installCrds(kc: k8s.KubeConfig, timeoutMs = 60_000): Promise<string[]> {
  const ext = kc.makeApiClient(k8s.ApiextensionsV1Api);
  const names: string[] = [];
  for (const def of ALL_KINDS) names.push(await applyCrd(ext, def));
  const deadline = { at: Date.now() + timeoutMs, timeoutMs };
  for (const name of names) await waitEstablished(ext, name, deadline);
  return names;
}
