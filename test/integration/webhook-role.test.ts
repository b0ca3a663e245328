// `platform run webhook` with leader election on, started before any serving
// certificate exists: it stays up and not ready (saying why), serves the
// certificate as soon as the Secret holds one, follows a rotation, and issues
// one itself once it leads. It never exits for lack of a certificate.
import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { certificateNames } from '../../webhooks/settings.ts';
import { issueCa, issueServing, type KeyPair } from '../../base/tls/certs.ts';
import { secretDataFromBundle } from '../../webhooks/tls/plan.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { startRole, type OperatorProcess } from './operator-process.ts';

const ns = useNamespace('webhook-role');
const SECRET = 'platform-webhook-tls';
const core = (): k8s.CoreV1Api => kubeConfig().makeApiClient(k8s.CoreV1Api);
const leases = (): k8s.CoordinationV1Api => kubeConfig().makeApiClient(k8s.CoordinationV1Api);
let webhook: OperatorProcess;

/** A lease held by a replica that is not running, so the started process stays a follower. */
async function holdLeaseElsewhere(): Promise<void> {
  await leases().createNamespacedLease({
    namespace: ns.name,
    body: {
      metadata: { name: 'platform-webhook' },
      spec: {
        holderIdentity: 'another-replica',
        leaseDurationSeconds: 3600,
        acquireTime: new k8s.V1MicroTime(),
        renewTime: new k8s.V1MicroTime(),
      },
    },
  });
}

function issuedFor(namespace: string): { ca: KeyPair; serving: KeyPair } {
  const names = certificateNames({ serviceName: 'platform-webhook', namespace, extraSans: ['127.0.0.1'] });
  const ca = issueCa(new Date(), 30);
  return { ca, serving: issueServing(ca, names, new Date(), 30) };
}

async function writeSecret(bundle: { ca: KeyPair; serving: KeyPair }): Promise<void> {
  const body = { metadata: { name: SECRET }, type: 'kubernetes.io/tls', data: secretDataFromBundle(bundle) };
  const existing = await core()
    .readNamespacedSecret({ namespace: ns.name, name: SECRET })
    .catch(() => undefined);
  if (existing) await core().replaceNamespacedSecret({ namespace: ns.name, name: SECRET, body });
  else await core().createNamespacedSecret({ namespace: ns.name, body });
}

function httpsPort(proc: OperatorProcess): number {
  return Number(proc.logs.find((l) => l.msg === 'admission webhook listening (HTTPS)')?.port ?? 0);
}

/** SHA-256 fingerprint of the certificate the webhook presents; undefined when the handshake fails. */
function servedFingerprint(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', () => resolve(undefined));
  });
}

const fingerprint = (pem: string): string => new X509Certificate(pem).fingerprint256;

function stillRunning(): void {
  expect(webhook.child.exitCode, webhook.describe()).toBeNull();
  expect(webhook.child.signalCode).toBeNull();
}

describe('the webhook role without a certificate (leader election on)', () => {
  it('stays up and not ready with a reason, then serves the certificate once the Secret holds one', async () => {
    await holdLeaseElsewhere();
    webhook = await startRole('webhook', 'webhook-role', {
      PLATFORM_NAMESPACE: ns.name,
      PLATFORM_LEADER_ELECTION: 'true',
      PLATFORM_WEBHOOK_PORT: '0',
      PLATFORM_WEBHOOK_METRICS_PORT: '0',
      PLATFORM_WEBHOOK_EXTRA_SANS: '127.0.0.1',
      PLATFORM_WEBHOOK_MUTATING_CONFIG: `absent-${ns.fileId}`,
      PLATFORM_WEBHOOK_VALIDATING_CONFIG: `absent-${ns.fileId}`,
      PLATFORM_WEBHOOK_NATIVE_SIDECARS: 'true',
    });
    const notReady = await eventually(async () => {
      const r = await webhook.get('/readyz');
      return r.status === 503 && r.body.includes('certificate:') ? r : undefined;
    }, '/readyz to say why it is not ready');
    expect(JSON.parse(notReady.body).failures).toEqual([
      `certificate: no serving certificate in Secret ${ns.name}/${SECRET} yet; ` +
        'waiting for the leader to issue it',
    ]);
    const port = await eventually(() => httpsPort(webhook) || undefined, 'the HTTPS listener');
    expect(await servedFingerprint(port)).toBeUndefined(); // listening, but no handshake without a certificate
    await new Promise((r) => setTimeout(r, 6_000)); // more than one reload interval, still waiting
    stillRunning();
    expect((await webhook.get('/readyz')).status).toBe(503);

    const first = issuedFor(ns.name);
    await writeSecret(first);
    await eventually(
      async () => ((await webhook.get('/readyz')).status === 200 ? true : undefined),
      '/readyz 200 once the Secret holds a certificate',
    );
    expect(await servedFingerprint(port)).toBe(fingerprint(first.serving.certPem));
    stillRunning();
  });

  it('follows a rotation written by another replica without a restart', async () => {
    const next = issuedFor(ns.name);
    await writeSecret(next);
    const port = httpsPort(webhook);
    await eventually(
      async () => ((await servedFingerprint(port)) === fingerprint(next.serving.certPem) ? true : undefined),
      'the rotated certificate to be served',
    );
    expect((await webhook.get('/readyz')).status).toBe(200);
    stillRunning();
  });

  it('issues a certificate itself once it leads and the Secret is emptied', async () => {
    await leases().deleteNamespacedLease({ namespace: ns.name, name: 'platform-webhook' });
    await core().deleteNamespacedSecret({ namespace: ns.name, name: SECRET });
    const issued = await eventually(
      async () => {
        const s = await core().readNamespacedSecret({ namespace: ns.name, name: SECRET });
        const pem = Buffer.from(s.data?.['tls.crt'] ?? '', 'base64').toString();
        return pem ? pem : undefined;
      },
      'the leader to issue a certificate',
      40_000,
    );
    const port = httpsPort(webhook);
    await eventually(
      async () => ((await servedFingerprint(port)) === fingerprint(issued) ? true : undefined),
      'the issued certificate to be served',
    );
    expect((await webhook.get('/readyz')).status).toBe(200);
    stillRunning();
  });
});
