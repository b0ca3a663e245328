// Deadlines handled by requeue-after, not polling: DelegationGrant expiry and
// immediate revocation, ConsentRequest TTL, the Stale condition, a
// ScopedCredential waiting for its Secret; and a PlatformEnvironment with
// deploymentType model → Deployment + headless Service.
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, useNamespace } from './harness.ts';
import { startOperator, type OperatorProcess } from './operator-process.ts';
import { Platform, condition } from './platform-client.ts';

const ns = useNamespace('deadlines');
const p = new Platform(() => ns.name);
let operator: OperatorProcess;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function grantSpec(expiresInMs: number): Record<string, unknown> {
  const now = Date.now();
  return {
    user: 'alice@example.com',
    agent: 'helper',
    service: 'slack',
    scopes: ['chat:write'],
    grantedAt: iso(now - 1000),
    expiresAt: iso(now + expiresInMs),
  };
}

beforeAll(async () => {
  operator = await startOperator({
    namespace: ns.name,
    identity: 'deadlines-operator',
    env: {
      PLATFORM_KEYRING_SECRET: `${ns.name}/platform-keyring`,
      PLATFORM_API_NAMESPACE: ns.name,
      PLATFORM_CONSENT_TTL: '4s',
      PLATFORM_AGENT_STALE_AFTER: '4s',
      PLATFORM_MODEL_SERVER_IMAGE: 'example.test/model-server:1',
    },
  });
  await eventually(async () => ((await operator.isLeader()) ? true : undefined), 'the operator to lead');
});

describe('DelegationGrant', () => {
  it('is active until its TTL elapses, then expired', async () => {
    await p.create('DelegationGrant', 'short', grantSpec(4000));
    const active = await eventually(() => p.inPhase('DelegationGrant', 'short', 'active'), 'active');
    expect(condition(active, 'Active')).toMatchObject({ status: 'True', reason: 'WithinTTL' });
    const expired = await eventually(
      () => p.inPhase('DelegationGrant', 'short', 'expired'),
      'expired',
      15_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(String(expired.spec?.expiresAt)));
    expect(condition(expired, 'Active')).toMatchObject({ status: 'False', reason: 'Expired' });
    expect(await p.eventReasons('short')).toContain('Expired');
  });

  it('is revoked at once when an owner revokes it', async () => {
    await p.create('DelegationGrant', 'long', grantSpec(3_600_000));
    await eventually(() => p.inPhase('DelegationGrant', 'long', 'active'), 'active');
    await p.patch('DelegationGrant', 'long', {
      metadata: { annotations: { 'platform.io/revoked-by': 'alice@example.com' } },
    });
    const revoked = await eventually(() => p.inPhase('DelegationGrant', 'long', 'revoked'), 'revoked', 5000);
    expect(revoked.status).toMatchObject({ revokedBy: 'alice@example.com' });
    expect(revoked.status?.revokedTime).toBeDefined();
  });

  it('is revoked when the API records the revocation in status', async () => {
    await p.create('DelegationGrant', 'api-revoked', grantSpec(3_600_000));
    await eventually(() => p.inPhase('DelegationGrant', 'api-revoked', 'active'), 'active');
    await p.patchStatus('DelegationGrant', 'api-revoked', {
      revokedTime: iso(Date.now()),
      revokedBy: 'bob@example.com',
    });
    await eventually(() => p.inPhase('DelegationGrant', 'api-revoked', 'revoked'), 'revoked', 5000);
  });
});

describe('ConsentRequest TTL', () => {
  it('resolves an unanswered consent request as denied when its TTL elapses', async () => {
    await p.create('ConsentRequest', 'ask', {
      user: 'alice@example.com',
      agent: 'helper',
      service: 'slack',
      scopes: ['chat:write'],
    });
    await eventually(() => p.inPhase('ConsentRequest', 'ask', 'pending'), 'pending');
    const resolved = await eventually(
      () => p.inPhase('ConsentRequest', 'ask', 'resolved'),
      'resolved',
      15_000,
    );
    expect(resolved.status).toMatchObject({ resolution: 'denied', resolvedBy: 'platform:expired' });
    expect(condition(resolved, 'Expired')).toMatchObject({ status: 'True', reason: 'TTLElapsed' });
  });
});

describe('Stale detection', () => {
  it('marks an agent without activity Stale after the configured period, and fresh activity clears it', async () => {
    await p.create('PlatformAgent', 'idle', { owners: [{ subject: 'alice@example.com', role: 'Owner' }] });
    await eventually(
      () => p.withCondition('PlatformAgent', 'idle', { type: 'Stale', status: 'False' }),
      'not stale yet',
    );
    const stale = await eventually(
      () =>
        p.withCondition('PlatformAgent', 'idle', {
          type: 'Stale',
          status: 'True',
          reason: 'NoRecentActivity',
        }),
      'Stale',
      15_000,
    );
    expect(condition(stale, 'Stale')?.message).toContain('no evidence or proxied access since');
    await p.patchStatus('PlatformAgent', 'idle', { lastActivityTime: iso(Date.now()) });
    await eventually(
      () => p.withCondition('PlatformAgent', 'idle', { type: 'Stale', status: 'False' }),
      'fresh again',
    );
  });
});

describe('PlatformEnvironment deploymentType model', () => {
  it("runs the model server as a Deployment behind a Service that leads to the pod's gateway, and publishes the endpoint", async () => {
    await p.create('PlatformEnvironment', 'llm', {
      deploymentType: 'model',
      model: { id: 'llama-3' },
      auditorChain: { preRequest: [{ auditorId: 'injection' }] },
    });
    const dep = await eventually(
      () => p.apps.readNamespacedDeployment({ namespace: ns.name, name: 'model-llm' }).catch(() => undefined),
      'the Deployment',
    );
    expect(dep.spec?.template).toMatchObject({
      metadata: {
        labels: { 'platform.io/secured': 'true' },
        annotations: {
          'platform.computing/auditor-chain': 'model-context,llm-judge,injection',
          'platform.computing/model-url': 'http://127.0.0.1:8080',
        },
      },
      spec: { containers: [{ image: 'example.test/model-server:1' }] },
    });
    const svc = await eventually(
      () => p.core.readNamespacedService({ namespace: ns.name, name: 'model-llm' }).catch(() => undefined),
      'the Service',
    );
    expect(svc.spec).toMatchObject({ type: 'ClusterIP', ports: [{ port: 8080, targetPort: 8099 }] });
    expect(svc.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'PlatformEnvironment', name: 'llm' });
    const env = await eventually(async () => {
      const e = await p.get('PlatformEnvironment', 'llm');
      return e?.status?.endpoint ? e : undefined;
    }, 'the endpoint');
    expect(env.status?.endpoint).toBe(`http://model-llm.${ns.name}.svc:8080`);
  });
});

describe('ScopedCredential auth status', () => {
  const credential = (secret: string) => ({
    scope: 'workspace',
    scopeId: 'ws',
    service: 'jira',
    type: 'api_key',
    secretRef: { name: secret, key: 'token' },
  });
  const withMaterial = async (name: string) =>
    eventually(async () => {
      const c = await p.get('ScopedCredential', name);
      return condition(c, 'MaterialReady')?.status === 'True' ? c : undefined;
    }, `${name} connected`);

  it('is pending while the Secret it names does not exist, and connected once it holds the key', async () => {
    await p.create('ScopedCredential', 'jira-kubectl', credential('jira-token'));
    const waiting = await eventually(async () => {
      const c = await p.get('ScopedCredential', 'jira-kubectl');
      return condition(c, 'MaterialReady') ? c : undefined;
    }, 'a MaterialReady condition');
    expect(waiting.status?.authStatus).toBe('pending');
    expect(condition(waiting, 'MaterialReady')).toMatchObject({ status: 'False', reason: 'SecretNotFound' });
    await p.core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'jira-token' }, stringData: { token: 'not-a-real-token' } },
    });
    // A user's Secret is outside the operator's cache: a change of the credential looks again at once.
    await p.patch('ScopedCredential', 'jira-kubectl', { metadata: { annotations: { touched: 'yes' } } });
    const connected = await withMaterial('jira-kubectl');
    expect(connected.status?.authStatus).toBe('connected');
  });

  it('says error when the Secret lacks the key, naming it', async () => {
    await p.core.createNamespacedSecret({
      namespace: ns.name,
      body: { metadata: { name: 'wrong-key' }, stringData: { password: 'x' } },
    });
    await p.create('ScopedCredential', 'jira-wrong-key', credential('wrong-key'));
    const c = await eventually(async () => {
      const got = await p.get('ScopedCredential', 'jira-wrong-key');
      return got?.status?.authStatus === 'error' ? got : undefined;
    }, 'error');
    expect(condition(c, 'MaterialReady')).toMatchObject({ status: 'False', reason: 'KeyNotFound' });
    expect(condition(c, 'MaterialReady')?.message).toContain('token');
  });
});
