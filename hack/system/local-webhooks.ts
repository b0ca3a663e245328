// For `npm start` on a local control plane: the webhook configurations of
// config/webhook, pointed at the webhook role on loopback by URL instead of
// the in-cluster Service. The webhook role itself fills in caBundle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { apiStatus, k8s } from '../../base/kube.ts';

interface WebhookEntry {
  clientConfig: { service?: { path?: string }; url?: string; caBundle?: string };
}
interface WebhookConfiguration {
  kind: string;
  metadata: { name: string };
  webhooks: WebhookEntry[];
}

/** Pure: rewrites every webhook's clientConfig from a Service to `https://host:port<path>`. */
export function toLocalUrl<T extends WebhookConfiguration>(config: T, host: string, port: number): T {
  const copy = structuredClone(config);
  for (const hook of copy.webhooks) {
    const path = hook.clientConfig.service?.path ?? '/';
    hook.clientConfig = { url: `https://${host}:${port}${path}` };
  }
  return copy;
}

export function readWebhookConfigurations(configDir: string): WebhookConfiguration[] {
  return ['mutating-webhook.yaml', 'validating-webhook.yaml'].flatMap((f) =>
    parseAllDocuments(readFileSync(join(configDir, 'webhook', f), 'utf8')).map(
      (d) => d.toJS() as WebhookConfiguration,
    ),
  );
}

/** Creates or replaces both configurations, keeping a caBundle already written. */
export async function registerLocalWebhooks(
  kc: k8s.KubeConfig,
  configDir: string,
  port: number,
): Promise<string[]> {
  const adm = kc.makeApiClient(k8s.AdmissionregistrationV1Api);
  const names: string[] = [];
  for (const config of readWebhookConfigurations(configDir)) {
    const local = toLocalUrl(config, '127.0.0.1', port);
    const name = local.metadata.name;
    const isMutating = local.kind === 'MutatingWebhookConfiguration';
    try {
      if (isMutating)
        await adm.createMutatingWebhookConfiguration({ body: local as k8s.V1MutatingWebhookConfiguration });
      else
        await adm.createValidatingWebhookConfiguration({
          body: local as k8s.V1ValidatingWebhookConfiguration,
        });
    } catch (err) {
      if (apiStatus(err) !== 409) throw err;
      // Already there from an earlier run: keep whatever caBundle the webhook wrote.
      const current = isMutating
        ? await adm.readMutatingWebhookConfiguration({ name })
        : await adm.readValidatingWebhookConfiguration({ name });
      local.webhooks.forEach((hook, i) => {
        const caBundle = current.webhooks?.[i]?.clientConfig.caBundle;
        if (caBundle) hook.clientConfig.caBundle = caBundle;
      });
      const body = {
        ...local,
        metadata: { ...local.metadata, resourceVersion: current.metadata?.resourceVersion },
      };
      if (isMutating)
        await adm.replaceMutatingWebhookConfiguration({
          name,
          body: body as k8s.V1MutatingWebhookConfiguration,
        });
      else
        await adm.replaceValidatingWebhookConfiguration({
          name,
          body: body as k8s.V1ValidatingWebhookConfiguration,
        });
    }
    names.push(name);
  }
  return names;
}
