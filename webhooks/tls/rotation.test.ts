// The rotator with the Secret in memory: a replica that starts before any
// certificate exists waits (never throws), says why on readiness, serves the
// certificate the leader writes, and follows a rotation.
import type * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { quietLogger } from '../testing/fixtures.ts';
import { issueCa, issueServing, type KeyPair } from '../../base/tls/certs.ts';
import { certificateReadiness, secretDataFromBundle } from './plan.ts';
import { CertRotator } from './rotation.ts';

const names = { dnsNames: ['platform-webhook.platform-system.svc'], ipAddresses: ['127.0.0.1'] };
const REF = 'platform-system/platform-webhook-tls';

/** One Secret in memory, with resourceVersions; `failing` makes every call throw. */
class SecretStore {
  secret: k8s.V1Secret | undefined;
  failing = '';
  private version = 0;

  fill(pair: { ca: KeyPair; serving: KeyPair }): void {
    this.version += 1;
    this.secret = {
      metadata: { name: 'platform-webhook-tls', resourceVersion: String(this.version) },
      data: secretDataFromBundle(pair),
    };
  }

  api(): k8s.CoreV1Api {
    const read = async (): Promise<k8s.V1Secret> => {
      if (this.failing) throw new Error(this.failing);
      if (!this.secret) throw Object.assign(new Error('not found'), { code: 404 });
      return this.secret;
    };
    const write = async ({ body }: { body: k8s.V1Secret }): Promise<k8s.V1Secret> => {
      this.version += 1;
      this.secret = { ...body, metadata: { ...body.metadata, resourceVersion: String(this.version) } };
      return this.secret;
    };
    return {
      readNamespacedSecret: read,
      createNamespacedSecret: write,
      replaceNamespacedSecret: write,
    } as unknown as k8s.CoreV1Api;
  }
}

function rotator(store: SecretStore, leader: { value: boolean }): { r: CertRotator; served: KeyPair[] } {
  const served: KeyPair[] = [];
  const r = new CertRotator({
    core: store.api(),
    admission: {} as k8s.AdmissionregistrationV1Api,
    secret: { namespace: 'platform-system', name: 'platform-webhook-tls' },
    names,
    manage: true,
    isLeader: () => leader.value,
    onServingCertificate: (pair) => served.push(pair),
    log: quietLogger(),
    reloadIntervalMs: 3_600_000,
  });
  return { r, served };
}

function issued(): { ca: KeyPair; serving: KeyPair } {
  const ca = issueCa(new Date(), 365);
  return { ca, serving: issueServing(ca, names, new Date(), 365) };
}

// RSA keys are slow to make: two pairs for the whole file.
const A = issued();
const B = issued();

describe('a webhook replica without a certificate', () => {
  it('starts, is not ready and says it waits for the leader, then serves what the leader writes', async () => {
    const store = new SecretStore();
    const { r, served } = rotator(store, { value: false });
    await r.start();
    expect(r.readiness()).toBe(
      `no serving certificate in Secret ${REF} yet; waiting for the leader to issue it`,
    );
    await r.reload();
    expect(served).toEqual([]);
    store.fill(A);
    await r.reload();
    expect(r.readiness()).toBe('');
    expect(served.map((p) => p.certPem)).toEqual([A.serving.certPem]);
    r.stop();
  });

  it('follows a rotation written by another replica', async () => {
    const store = new SecretStore();
    store.fill(A);
    const { r, served } = rotator(store, { value: false });
    await r.start();
    await r.reload(); // unchanged Secret: nothing served again
    store.fill(B);
    await r.reload();
    expect(served).toHaveLength(2);
    expect(served[1]?.certPem).toBe(B.serving.certPem);
    r.stop();
  });

  it('issues on the next reload once it becomes the leader', async () => {
    const store = new SecretStore();
    const leader = { value: false };
    const { r, served } = rotator(store, leader);
    await r.start();
    expect(store.secret).toBeUndefined();
    leader.value = true;
    await r.reload();
    expect(store.secret?.data?.['tls.crt']).toBeDefined();
    expect(served).toHaveLength(1);
    expect(r.condition()).toMatchObject({ status: 'True', reason: 'Valid' });
    r.stop();
  });

  it('reports an unreadable Secret instead of failing, and recovers when it can read again', async () => {
    const store = new SecretStore();
    store.failing = 'secrets "platform-webhook-tls" is forbidden';
    const { r } = rotator(store, { value: false });
    await expect(r.start()).resolves.toBeUndefined();
    expect(r.condition()).toMatchObject({ status: 'False', reason: 'SecretUnreadable' });
    expect(r.readiness()).toMatch(/^SecretUnreadable: reading Secret .* is forbidden/);
    store.failing = '';
    store.fill(A);
    await r.reload();
    expect(r.readiness()).toBe('');
    r.stop();
  });

  it('keeps serving a valid certificate while the Secret is briefly unreadable', async () => {
    const store = new SecretStore();
    store.fill(A);
    const { r } = rotator(store, { value: false });
    await r.start();
    store.failing = 'connection refused';
    await expect(r.reload()).rejects.toThrow(/connection refused/);
    expect(r.readiness()).toBe('');
    r.stop();
  });
});

describe('certificate readiness', () => {
  const missing = {
    type: 'CertificateValid',
    status: 'False',
    reason: 'Missing',
    message: 'no serving certificate',
  } as const;

  it('names the Secret and who fills it', () => {
    expect(certificateReadiness(missing, REF, 'this-replica')).toMatch(/this replica leads and issues it$/);
    expect(certificateReadiness(missing, REF, 'an-external-issuer')).toMatch(/e\.g\. cert-manager/);
  });

  it('is empty for a valid certificate and names the reason otherwise', () => {
    expect(certificateReadiness({ ...missing, status: 'True', reason: 'Valid' }, REF, 'the-leader')).toBe('');
    expect(
      certificateReadiness({ ...missing, reason: 'Expired', message: 'expired' }, REF, 'the-leader'),
    ).toBe(`Expired: expired (Secret ${REF})`);
  });
});
