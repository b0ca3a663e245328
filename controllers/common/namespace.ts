// The admission webhook sees pods only in namespaces labelled
// `platform.computing/enabled: 'true'` (its namespaceSelector). A controller
// that makes pods in a namespace labels it first: a pod created before the
// label starts without its gateway and auditors, and nothing calls the
// webhook again for it.
import type * as k8s from '@kubernetes/client-node';
import { apiMessage, apiStatus } from '../../base/kube.ts';
import { mergePatch, type ObjectWriter } from '../../base/controller/writer.ts';
import { LABEL } from '../../contract/kube.ts';

export interface NamespaceLabelResult {
  /** The label had to be added now (pods made before it were not injected). */
  labelled: boolean;
  /** Why the namespace could not be read or labelled. */
  error?: string;
}

export async function ensureNamespaceEnabled(
  core: k8s.CoreV1Api,
  writer: ObjectWriter,
  name: string,
): Promise<NamespaceLabelResult> {
  try {
    const ns = await core.readNamespace({ name });
    if (ns.metadata?.labels?.[LABEL.namespaceEnabled] === 'true' || ns.metadata?.deletionTimestamp) {
      return { labelled: false };
    }
    const body = { metadata: { labels: { [LABEL.namespaceEnabled]: 'true' } } };
    await writer.patch('Namespace', () => core.patchNamespace({ name, body }, mergePatch));
    return { labelled: true };
  } catch (err) {
    return { labelled: false, error: `HTTP ${apiStatus(err) ?? '?'}: ${apiMessage(err)}` };
  }
}
