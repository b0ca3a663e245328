// The per-file webhook helper: a webhook registered by one file sees only that
// file's namespace, and a stopped webhook with failurePolicy Fail blocks only
// that namespace.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../../hack/control-plane/certs.ts';
import { k8s } from '../../base/kube.ts';
import { kubeConfig, registerWebhooks, rejection, useNamespace } from './harness.ts';

const ns = useNamespace('webhook-harness');
const other = useNamespace('webhook-harness-other');
const ca = issueCertificate({ commonName: 'test-webhook-ca', isCA: true, validDays: 1 });
const serving = issueCertificate(
  { commonName: 'webhook', ipAddresses: ['127.0.0.1'], serverAuth: true, validDays: 1 },
  ca,
);
let server: Server;
let unregister: () => Promise<void>;
let reviews = 0;

beforeAll(async () => {
  server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      reviews++;
      const review = JSON.parse(body) as { request: { uid: string; name: string } };
      const allowed = review.request.name !== 'forbidden';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          apiVersion: 'admission.k8s.io/v1',
          kind: 'AdmissionReview',
          response: {
            uid: review.request.uid,
            allowed,
            status: allowed ? undefined : { message: 'name is forbidden' },
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  unregister = await registerWebhooks(ns, [
    {
      kind: 'validating',
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/validate`,
      caBundlePem: ca.certPem,
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
    },
  ]);
});
afterAll(async () => {
  await unregister();
  server.close();
});

const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
const createConfigMap = (namespace: string, name: string): Promise<k8s.V1ConfigMap> =>
  core().createNamespacedConfigMap({ namespace, body: { metadata: { name } } });

describe('per-file admission webhooks', () => {
  it("applies the file's webhook to objects in the file's namespace", async () => {
    // Registration takes effect asynchronously in the apiserver; retry the first call briefly.
    let message = '';
    for (let i = 0; i < 50 && !message.includes('name is forbidden'); i++) {
      message = await rejection(createConfigMap(ns.name, 'forbidden'));
      if (!message) await core().deleteNamespacedConfigMap({ namespace: ns.name, name: 'forbidden' });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(message).toContain('name is forbidden');
    await createConfigMap(ns.name, 'allowed');
    expect(reviews).toBeGreaterThan(0);
  });

  it('leaves other namespaces alone', async () => {
    const before = reviews;
    await createConfigMap(other.name, 'forbidden');
    expect(reviews).toBe(before);
  });

  it('blocks only its own namespace once its server is stopped (failurePolicy Fail)', async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    expect(await rejection(createConfigMap(ns.name, 'after-stop'))).toMatch(/failed calling webhook/);
    await createConfigMap(other.name, 'after-stop');
  });
});
