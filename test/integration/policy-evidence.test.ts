// Policies and evidence through the real Verifier API on the real control
// plane: an enforcement violation is 422 with the exact detail over REST and
// the same message from the apiserver (AuditorPolicy validating webhook
// registered by URL; also `kubectl apply` when kubectl was built); Evidence
// posted with a Gateway key lands in the timeline and the passport (API and
// PlatformAgent status); duplicate 409, oversize 413, bad signature and
// malformed claims 422; apply-preset writes AuditorPolicy resources with the
// documented values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditorPolicy } from '../../crds/generated/types.ts';
import { createAttestationAgent } from '../../attestation/agent.ts';
import { signEvidence } from '../../evidence/sign.ts';
import { k8s } from '../../base/kube.ts';
import { storedAgent, useApi } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import {
  outcomeOf,
  kubectlApply,
  kubectlPath,
  signedEvidence,
  startPolicyWebhook,
  type PolicyWebhook,
} from './verifier-fixtures.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';

const EVIDENCE_MAX = 16 * 1024;
const ns = useNamespace('policy-evidence');
const fx = useApi(ns, () => ({ PLATFORM_EVIDENCE_MAX_BYTES: String(EVIDENCE_MAX) }));
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);
const POLICIES = { group: GROUP, version: VERSION, plural: 'auditorpolicies' };
let webhook: PolicyWebhook;
let gatewayKey = '';

const orgPolicy = () => ({
  id: `${ns.name}.org-policy`,
  spec: {
    scope: 'org',
    scopeId: 'acme',
    detection: { injection_detected: { threshold: { value: 0.8, enforcement: 'ceiling' } } },
  },
});
const loosened = () => ({
  scope: 'workspace',
  scopeId: ns.name,
  detection: { injection_detected: { threshold: { value: 0.95 } } },
});
const violation = () =>
  `detection.injection_detected.threshold: enforcement mode 'ceiling' set by policy '${ns.name}.org-policy' requires a value <= 0.8; got 0.95`;
const resource = (name: string, spec: unknown) => ({
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'AuditorPolicy',
  metadata: { name, namespace: ns.name },
  spec,
});

async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: number; body?: string };
    const body = JSON.parse(String(e.body ?? '{}')) as { message?: string };
    return { code: e.code ?? 0, message: body.message ?? String(err) };
  }
  return { code: 0, message: '' };
}

/**
 * Org-scope policies bind the whole cluster, so one another file applied
 * (crds.test.ts applies the samples, then removes its org policy) would judge
 * this file's saves too: wait until none but ours is left.
 */
async function noForeignOrgPolicies(): Promise<void> {
  await eventually(
    async () => {
      const list = (await custom().listClusterCustomObject(POLICIES)) as {
        items: { metadata: { namespace: string }; spec: { scope?: string } }[];
      };
      const foreign = list.items.filter((p) => p.spec.scope === 'org' && p.metadata.namespace !== ns.name);
      return foreign.length === 0 ? true : undefined;
    },
    'no org-scope AuditorPolicy of another test file',
    60_000,
  );
}

beforeAll(async () => {
  await noForeignOrgPolicies();
  const org = await fx.call('POST', '/v1/policies', { key: fx.keys.org_admin, body: orgPolicy() });
  expect(org.status, JSON.stringify(org.body)).toBe(201);
  const g = await fx.call('POST', '/v1/api-keys', {
    key: fx.keys.org_admin,
    body: { subject: 'gateway@policy-evidence', role: 'gateway' },
  });
  gatewayKey = String(g.body.key);
  webhook = await startPolicyWebhook(ns, fx.api.url);
  // Registration takes effect asynchronously: wait until a dry-run violation is refused.
  await eventually(async () => {
    const r = await rejection(
      custom().createNamespacedCustomObject({
        ...POLICIES,
        namespace: ns.name,
        body: resource('probe', loosened()),
        dryRun: 'All',
      }),
    );
    return r.code === 422 ? true : undefined;
  }, 'the policy webhook to take effect');
}, 60_000);

afterAll(async () => {
  await webhook?.unregister();
  await webhook?.app.close();
});

describe('enforcement modes', () => {
  it('answers a violating save with 422 and the exact detail over REST', async () => {
    const r = await fx.call('POST', '/v1/policies', {
      key: fx.keys.workspace_admin,
      body: { id: `${ns.name}.workspace-policy`, spec: loosened() },
    });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: violation(), code: 'enforcement_violation' });
  });

  it('refuses the same change through the cluster API with the same message', async () => {
    const r = await rejection(
      custom().createNamespacedCustomObject({
        ...POLICIES,
        namespace: ns.name,
        body: resource('workspace-policy', loosened()),
      }),
    );
    expect(r.code).toBe(422);
    expect(r.message).toContain(`denied the request: ${violation()}`);
  });

  it('refuses it from kubectl apply too, when kubectl was built', async () => {
    const kubectl = kubectlPath();
    if (!kubectl) return; // CI builds without kubectl; the client-API assertion above always runs
    const r = await kubectlApply(kubectl, resource('workspace-policy', loosened()));
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(violation());
  });

  it('lets workspace admins save a compliant policy in their namespace only', async () => {
    const ok = await fx.call('POST', '/v1/policies', {
      key: fx.keys.workspace_admin,
      body: {
        id: `${ns.name}.tight`,
        spec: { ...loosened(), scopeId: `${ns.name}-tight`, detection: {} },
      },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ id: `${ns.name}.tight`, version: '1' });
    const elsewhere = await fx.call('POST', '/v1/policies', {
      key: fx.keys.workspace_admin,
      body: { id: 'other-ns.tight', spec: { scope: 'workspace', scopeId: 'other-ns' } },
    });
    expect(elsewhere.status).toBe(403);
    const effective = await fx.call('GET', `/v1/policies/${ns.name}.tight/effective`, { key: gatewayKey });
    expect(effective.status).toBe(200);
    expect(effective.body.policy_version).toBe(`${ns.name}.org-policy@1,${ns.name}.tight@1`);
  });
});

describe('a workspace of another organization', () => {
  it("is not held to acme's enforcement modes, over REST and through the cluster API", async () => {
    await custom().createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      plural: PLURAL.workspace,
      namespace: ns.name,
      body: {
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'PlatformWorkspace',
        metadata: { name: 'globex-team' },
        spec: { organization: 'globex' },
      },
    });
    const spec = { ...loosened(), scopeId: 'globex-team' };
    const r = await fx.call('POST', '/v1/policies', {
      key: fx.keys.workspace_admin,
      body: { id: `${ns.name}.globex-policy`, spec },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const effective = await fx.call('GET', `/v1/policies/${ns.name}.globex-policy/effective`, {
      key: gatewayKey,
    });
    expect(effective.body.policy_version).toBe(`${ns.name}.globex-policy@1`);
    // The webhook reads the workspace from its cache: the admission may come before the cache has it.
    await eventually(
      () =>
        custom()
          .createNamespacedCustomObject({
            ...POLICIES,
            namespace: ns.name,
            body: resource('globex-direct', spec),
          })
          .then(() => true)
          .catch(() => undefined),
      'the cluster API to accept the policy',
    );
  });
});

/** The external auditor the signed fixtures name, registered as the Verifier needs to trust it. */
const EXT_SCANNER = {
  apiVersion: `${GROUP}/${VERSION}`,
  kind: 'AuditorRegistration',
  metadata: { name: 'ext-scanner' },
  spec: {
    auditorId: 'ext-scanner',
    category: 'compliance',
    phase: 'input_guarding',
    deploymentMode: 'external',
    endpoint: 'https://scanner.example.com',
    auth: { type: 'api_key', secretRef: { name: 'ext-scanner-key', key: 'api-key' } },
  },
};
const REGISTRATIONS = { group: GROUP, version: VERSION, plural: 'auditorregistrations' };

describe('evidence intake', () => {
  let agentId = '';
  beforeAll(async () => {
    agentId = await fx.createAgent('attested');
    await custom()
      .createClusterCustomObject({ ...REGISTRATIONS, body: EXT_SCANNER })
      .catch((err: unknown) => {
        if ((err as { code?: number }).code !== 409) throw err;
      });
    // The Verifier's registration cache must have it before Evidence naming it arrives.
    await eventually(async () => {
      const r = await fx.call('GET', '/v1/auditors', { key: fx.keys.viewer });
      const list = (Array.isArray(r.body) ? r.body : ((r.body as { items?: unknown[] }).items ?? [])) as {
        auditor_id?: string;
        id?: string;
      }[];
      return list.some((a) => (a.auditor_id ?? a.id) === 'ext-scanner') ? true : undefined;
    }, 'ext-scanner in the Verifier registry');
  });
  afterAll(async () => {
    await custom()
      .deleteClusterCustomObject({ ...REGISTRATIONS, name: 'ext-scanner' })
      .catch(() => undefined);
  });

  it('stores signed Evidence from a Gateway key and shows it in the timeline', async () => {
    const ev = await signedEvidence(`ev-${ns.name}-1`, agentId, { model_id: 'gpt-4o-mini', user_id: 'ann' });
    const r = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: ev });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.attestation_result).toMatchObject({
      evidence_id: ev.evidence_id,
      signature: 'valid',
      hardware_attested: false,
      trust_tier: 'key_authenticated',
      auditors: [
        { auditor_id: 'injection', trust_tier: 'mtls_verified' },
        { auditor_id: 'ext-scanner', trust_tier: 'key_authenticated' },
      ],
    });
    const t = await fx.call('GET', `/v1/agents/${agentId}/evidence`, { key: fx.keys.viewer });
    expect(t.status).toBe(200);
    expect(t.body.items?.map((e) => e.evidence_id)).toEqual([ev.evidence_id]);
    expect(t.body.items?.[0]).toMatchObject({ decision: 'allow', trust_tier: 'key_authenticated' });
    const stranger = await fx.call('GET', `/v1/agents/${agentId}/evidence`, { key: fx.keys.stranger });
    expect(stranger.status).toBe(403);
  });

  it('writes the attestation result and tiers into the passport: API and PlatformAgent status', async () => {
    const p = await fx.call('GET', `/v1/agents/${agentId}/passport`, { key: fx.keys.viewer });
    expect(p.status).toBe(200);
    const attestation = p.body.attestation as Record<string, unknown>;
    expect(attestation).toMatchObject({
      trust_tier: 'key_authenticated',
      hardware_attested: false,
      auditor_tiers: { injection: 'mtls_verified', 'ext-scanner': 'key_authenticated' },
    });
    expect((attestation.results as { evidence_id: string }[])[0]?.evidence_id).toBe(`ev-${ns.name}-1`);
    // Accesses are rendered from the stored, signed Evidence: the model call it audited.
    expect(p.body.access_count).toBe(1);
    expect(p.body.accesses).toEqual([
      {
        source: 'model_call',
        time: expect.any(String),
        resource: 'model:gpt-4o-mini',
        operation: 'model.request',
        decision: 'allow',
        blocked: false,
        evidence_id: `ev-${ns.name}-1`,
        user_id: 'ann',
      },
    ]);
    expect(p.body.trust_tiers).toContainEqual(
      expect.objectContaining({ auditor_id: 'injection', attested_tier: 'mtls_verified' }),
    );
    const agent = await storedAgent(ns.name, agentId.slice(ns.name.length + 1));
    expect(agent.status?.trustTier).toBe('key_authenticated');
    expect(agent.status?.passport?.trustTiers).toEqual({
      injection: 'mtls_verified',
      'ext-scanner': 'key_authenticated',
    });
    expect(Date.parse(agent.status?.passport?.lastAttestationTime ?? '')).not.toBeNaN();
  });

  it('limits a gateway key minted for workspaces to the agents there', async () => {
    const scopedAgent = await fx.createAgent('scoped');
    const mint = async (workspaces: string[]) =>
      String(
        (
          await fx.call('POST', '/v1/api-keys', {
            key: fx.keys.org_admin,
            body: { subject: `gw-${workspaces.join('-')}@policy-evidence`, role: 'gateway', workspaces },
          })
        ).body.key,
      );
    const elsewhere = await fx.call('POST', '/v1/evidence', {
      key: await mint(['some-other-ns']),
      body: await signedEvidence(`ev-${ns.name}-scoped-1`, scopedAgent),
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.detail).toMatch(/only for workspaces some-other-ns/);
    // Its own attester id: `gateway/policy-evidence` is bound to the first Gateway key.
    const here = await fx.call('POST', '/v1/evidence', {
      key: await mint([ns.name]),
      body: await signedEvidence(`ev-${ns.name}-scoped-2`, scopedAgent, { attester_id: 'gateway/scoped' }),
    });
    expect(here.status, JSON.stringify(here.body)).toBe(201);
  });

  it('refuses a duplicate (409), an oversize body (413), a bad signature and a malformed claim (422)', async () => {
    const ev = await signedEvidence(`ev-${ns.name}-1`, agentId);
    const dup = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: ev });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('duplicate_evidence');
    const big = await signedEvidence(`ev-${ns.name}-big`, agentId, {
      decision_reasons: ['x'.repeat(EVIDENCE_MAX)],
    });
    const over = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: big });
    expect(over.status).toBe(413);
    const signed = await signedEvidence(`ev-${ns.name}-2`, agentId);
    const tampered = { ...signed, decision_reasons: ['tampered'] };
    const bad = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: tampered });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_signature');
    const malformed = await signedEvidence(`ev-${ns.name}-3`, agentId, {
      claims: [{ name: 'injection_score', type: 'score_normalized', value: 'high' }],
    });
    const m = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: malformed });
    expect(m.status).toBe(422);
    expect(m.body.code).toBe('invalid_claim');
    const asAdmin = await fx.call('POST', '/v1/evidence', { key: fx.keys.org_admin, body: signed });
    expect(asAdmin.status).toBe(403);
    const t = await fx.call('GET', `/v1/agents/${agentId}/evidence`, { key: fx.keys.owner });
    expect(t.body.items?.map((e) => e.evidence_id)).toEqual([`ev-${ns.name}-1`]);
  });
  it('gives an auditor nobody registered, and Evidence naming no auditor, the unverified tier', async () => {
    const unknown = await signedEvidence(`ev-${ns.name}-unknown`, agentId, {
      auditors: [{ ...outcomeOf('made-up-auditor') }],
    });
    const r = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: unknown });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.attestation_result).toMatchObject({
      trust_tier: 'unverified',
      auditors: [{ auditor_id: 'made-up-auditor', trust_tier: 'unverified' }],
    });
    const none = await signedEvidence(`ev-${ns.name}-none`, agentId, { auditors: [] });
    const n = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: none });
    expect(n.status, JSON.stringify(n.body)).toBe(201);
    expect(n.body.attestation_result).toMatchObject({ trust_tier: 'unverified', auditors: [] });
  });

  it('keeps free text exactly as signed, and refuses control characters in an identifier (decision 91)', async () => {
    const text = 'gpt\u0085\t\u202e';
    const ev = await signedEvidence(`ev-${ns.name}-text`, agentId, {
      claims: [{ name: 'model_context.model_id', type: 'string', value: text }],
      decision_reasons: ['line one\nline two \u009f'],
    });
    const r = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: ev });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const t = await fx.call('GET', `/v1/agents/${agentId}/evidence`, { key: fx.keys.owner });
    const stored = t.body.items?.find((e) => e.evidence_id === `ev-${ns.name}-text`) as
      { claims: { value: unknown }[] } | undefined;
    expect(stored?.claims[0]?.value).toBe(text);
    const bad = await signedEvidence(`ev-${ns.name}-badid`, agentId, { policy_id: 'p\u007f' });
    const b = await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: bad });
    expect(b.status).toBe(422);
    expect(b.body.detail).toContain('policy_id: holds U+007F');
  });
});

describe('evidence trust boundaries (issue 13, findings 2 and 4)', () => {
  const timeline = async (id: string) =>
    (await fx.call('GET', `/v1/agents/${id}/evidence`, { key: fx.keys.viewer })).body.items?.map(
      (e) => e.evidence_id,
    );
  const agentsApi = { group: GROUP, version: VERSION, plural: 'platformagents' };
  /** The agent the intake tests above created. */
  const attested = (): string => `${ns.name}.attested`;

  it('refuses Evidence for an agent or namespace that does not exist; an agent created later shows none', async () => {
    const ghost = `${ns.name}.ghost`;
    for (const id of [ghost, 'no-such-namespace-x.bot']) {
      const r = await fx.call('POST', '/v1/evidence', {
        key: gatewayKey,
        body: await signedEvidence(`ev-${ns.name}-${id}`, id),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body).toEqual({ detail: `agent_id: no agent ${id}`, code: 'unknown_agent' });
    }
    await fx.createAgent('ghost');
    expect(await timeline(ghost)).toEqual([]);
    const p = await fx.call('GET', `/v1/agents/${ghost}/passport`, { key: fx.keys.viewer });
    expect(p.body.accesses).toEqual([]);
    expect((p.body.attestation as { results: unknown[] }).results).toEqual([]);
  });

  it('gives an agent deleted and created again under the same name an empty timeline and passport', async () => {
    const id = await fx.createAgent('phoenix');
    const r = await fx.call('POST', '/v1/evidence', {
      key: gatewayKey,
      body: await signedEvidence(`ev-${ns.name}-phoenix-1`, id),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(await timeline(id)).toEqual([`ev-${ns.name}-phoenix-1`]);
    await custom().deleteNamespacedCustomObject({ ...agentsApi, namespace: ns.name, name: 'phoenix' });
    await fx.until(`/v1/agents/${id}`, (g) => g.status === 404);
    await fx.createAgent('phoenix');
    expect(await timeline(id)).toEqual([]);
    const p = await fx.call('GET', `/v1/agents/${id}/passport`, { key: fx.keys.viewer });
    expect(p.body.accesses).toEqual([]);
  });

  it("refuses another Gateway key pinning a new key under an attester id bound to the first one's", async () => {
    const other = String(
      (
        await fx.call('POST', '/v1/api-keys', {
          key: fx.keys.org_admin,
          body: { subject: 'gw-intruder@policy-evidence', role: 'gateway' },
        })
      ).body.key,
    );
    const intruder = createAttestationAgent({ provider: 'MOCK' });
    const { signature: _, ...unsigned } = await signedEvidence(`ev-${ns.name}-intruder`, attested(), {
      attestation: intruder.binding(),
    });
    const r = await fx.call('POST', '/v1/evidence', {
      key: other,
      body: await signEvidence(unsigned, intruder),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.code).toBe('untrusted_key');
    expect(await timeline(attested())).not.toContain(`ev-${ns.name}-intruder`);
  });

  it('refuses a key id that does not match its public key, and generated_at in 2999 or 1970', async () => {
    const mismatch = createAttestationAgent({ provider: 'MOCK' });
    const { signature: _, ...unsigned } = await signedEvidence(`ev-${ns.name}-kid`, attested(), {
      attestation: { ...mismatch.binding(), key_id: 'fresh-key' },
    });
    const k = await fx.call('POST', '/v1/evidence', {
      key: gatewayKey,
      body: await signEvidence(unsigned, mismatch),
    });
    expect(k.status).toBe(422);
    expect(k.body.detail).toMatch(/^attestation\.key_id: /);
    for (const generated_at of ['2999-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z']) {
      const r = await fx.call('POST', '/v1/evidence', {
        key: gatewayKey,
        body: await signedEvidence(`ev-${ns.name}-${generated_at.slice(0, 4)}`, attested(), { generated_at }),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.detail).toMatch(/^generated_at: /);
    }
    expect(await timeline(attested())).not.toContain(`ev-${ns.name}-2999`);
  });

  it('lets only an org administrator revoke an attester key, which releases the attester', async () => {
    const signer = createAttestationAgent({ provider: 'MOCK' });
    const attester = 'gateway/revocable';
    const sign = async (id: string, by = signer) => {
      const { signature: _, ...unsigned } = await signedEvidence(id, attested(), {
        attester_id: attester,
        attestation: by.binding(),
      });
      return signEvidence(unsigned, by);
    };
    expect(
      (await fx.call('POST', '/v1/evidence', { key: gatewayKey, body: await sign(`ev-${ns.name}-r1`) }))
        .status,
    ).toBe(201);
    const path = `/v1/attesters/${encodeURIComponent(attester)}/keys/${signer.binding().key_id}`;
    expect((await fx.call('DELETE', path, { key: fx.keys.workspace_admin })).status).toBe(403);
    expect((await fx.call('DELETE', path, { key: gatewayKey })).status).toBe(403);
    expect((await fx.call('DELETE', path, { key: fx.keys.org_admin })).status).toBe(204);
    const missing = await fx.call('DELETE', `/v1/attesters/${encodeURIComponent(attester)}/keys/nope`, {
      key: fx.keys.org_admin,
    });
    expect(missing.status).toBe(404);
    const again = await fx.call('POST', '/v1/evidence', {
      key: gatewayKey,
      body: await sign(`ev-${ns.name}-r2`),
    });
    expect(again.body.code).toBe('untrusted_key');
    const audit = await fx.call('GET', '/v1/audit?action=attester.key.revoke', { key: fx.keys.org_admin });
    expect(JSON.stringify(audit.body)).toContain(`attester:${attester}/${signer.binding().key_id}`);
  });
});

describe('apply-preset', () => {
  const readPolicy = async (): Promise<AuditorPolicy> =>
    (await custom().getNamespacedCustomObject({
      ...POLICIES,
      namespace: ns.name,
      name: 'workspace-policy',
    })) as AuditorPolicy;

  it('writes the injection Strict values into the workspace AuditorPolicy', async () => {
    const r = await fx.call('POST', `/api/v1/workspaces/${ns.name}/apply-preset`, {
      key: fx.keys.workspace_admin,
      body: { auditor: 'injection', tier: 'Strict' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ policy_id: `${ns.name}.workspace-policy`, policy_version: '1' });
    const stored = await readPolicy();
    expect(stored.spec.detection?.injection_detected).toMatchObject({
      threshold: { value: 0.6, enforcement: 'ceiling' },
      invisible_char_check: { value: true, enforcement: 'exact' },
      ban_substrings: {
        value: ['ignore previous instructions', 'disregard all prior', 'you are now in developer mode'],
        enforcement: 'superset',
      },
    });
    expect(stored.spec.detection?.injection_score?.threshold).toEqual({ value: 0.6, enforcement: 'ceiling' });
    expect(stored.spec.responseRules?.map((x) => x.name)).toEqual([
      'injection-block',
      'injection-block-invisible',
      'injection-block-pattern',
    ]);
    expect(stored.spec.cedar).toContain('@id("injection-block-banned")');
  });

  it('applies a bundle on top, and refuses what no admin of the namespace asks for', async () => {
    const r = await fx.call('POST', `/api/v1/workspaces/${ns.name}/apply-preset`, {
      key: fx.keys.org_admin,
      body: { bundle: 'production_team' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.policy_version).toBe('2');
    const stored = await readPolicy();
    expect(stored.spec.detection?.toxicity_detected?.threshold).toEqual({
      value: 0.7,
      enforcement: 'ceiling',
    });
    expect(stored.spec.detection?.injection_detected?.threshold).toEqual({
      value: 0.8,
      enforcement: 'ceiling',
    });
    expect(stored.spec.responseRules?.map((x) => x.name)).toContain('toxicity-block');
    const owner = await fx.call('POST', `/api/v1/workspaces/${ns.name}/apply-preset`, {
      key: fx.keys.owner,
      body: { bundle: 'solo_builder' },
    });
    expect(owner.status).toBe(403);
    const unknown = await fx.call('POST', `/api/v1/workspaces/${ns.name}/apply-preset`, {
      key: fx.keys.org_admin,
      body: { auditor: 'nope', tier: 'Strict' },
    });
    expect(unknown.status).toBe(400);
  });
});
