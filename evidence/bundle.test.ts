// The evidence bundle: built from stored entries, its text verifies offline;
// any one byte changed in a record's line fails, naming that record.
import { describe, expect, it } from 'vitest';
import { createAttestationAgent } from '../attestation/agent.ts';
import { buildBundle, locateBreak, serializeBundle, type EvidenceBundle } from './bundle.ts';
import { verifyBundle, verifyBundleText } from './bundle-verify.ts';
import { assess } from './result.ts';
import { signEvidence } from './sign.ts';
import { link, type StoredEvidence } from './store.ts';
import type { RegistrationFacts } from './trust.ts';
import type { Evidence } from './types.ts';

const attester = createAttestationAgent({ provider: 'MOCK' });
const AGENT = 'team.bot';
const registrations = (id: string): RegistrationFacts | undefined =>
  id === 'injection'
    ? { deploymentMode: 'sidecar' }
    : id === 'ext'
      ? { deploymentMode: 'external', authType: 'api_key' }
      : undefined;

function evidence(id: string, agentId: string): Promise<Evidence> {
  return signEvidence(
    {
      schema_version: '2.0.0',
      evidence_id: id,
      attester_id: 'gateway/test',
      attester_type: 'gateway',
      agent_id: agentId,
      workspace_id: 'team',
      trace_id: `trace-${id}`,
      claims: [
        { name: 'injection_detected', type: 'boolean', value: false },
        { name: 'injection_score', type: 'score_normalized', value: 0.12, confidence: 0.9 },
      ],
      decision: 'allow',
      decision_reasons: [],
      policy_id: 'team.workspace-policy',
      policy_version: '1',
      phase: 'request',
      audit_mode: 'enforce',
      blocked: false,
      generated_at: '2030-01-01T00:00:00.000Z',
      auditors: [
        {
          auditor_id: 'injection',
          deployment_mode: 'sidecar',
          channel: 'pod_local',
          status: 'ok',
          claims: ['injection_detected', 'injection_score'],
          latency_ms: 3,
          attempts: 1,
        },
        {
          auditor_id: 'ext',
          deployment_mode: 'external',
          channel: 'api_key',
          status: 'ok',
          claims: [],
          latency_ms: 9,
          attempts: 1,
        },
      ],
      attestation: attester.binding(),
    },
    attester,
  );
}

/** Four chained entries: the agent's, another agent's (a gap), then two more of the agent's. */
async function entries(): Promise<StoredEvidence[]> {
  const out: StoredEvidence[] = [];
  for (const [id, agent] of [
    ['ev-1', AGENT],
    ['ev-other', 'team.other'],
    ['ev-2', AGENT],
    ['ev-3', AGENT],
  ] as const) {
    const e = await evidence(id, agent);
    out.push(link(out[out.length - 1], e, await assess(e, registrations), 'uid-1'));
  }
  return out.filter((e) => e.agent_id === AGENT);
}

const AUDITORS = [
  { auditor_id: 'injection', deployment_mode: 'sidecar', trust_tier: 'mtls_verified' },
  { auditor_id: 'ext', deployment_mode: 'external', trust_tier: 'key_authenticated' },
  { auditor_id: 'unused', deployment_mode: 'external', trust_tier: 'unverified' },
];

async function bundle(): Promise<EvidenceBundle> {
  const meta = { exportedAt: '2030-01-02T00:00:00Z', server: 'http://v', agentId: AGENT, from: 'a', to: 'b' };
  return buildBundle(meta, (await entries()).reverse(), AUDITORS);
}

describe('evidence bundles', () => {
  it('verifies as built: signatures, links, a gap and the recomputed tiers', async () => {
    const b = await bundle();
    expect(b.records.map((r) => r.seq)).toEqual([1, 3, 4]);
    expect(b.trust.auditors.map((a) => [a.auditor_id, a.ceiling])).toEqual([
      ['injection', 'tee_attested'],
      ['ext', 'key_authenticated'],
    ]);
    const verdict = await verifyBundleText(serializeBundle(b));
    expect(verdict).toMatchObject({ ok: true, summary: { records: 3, links: 1, gaps: 1 } });
    expect(verdict.ok && verdict.summary.tiers).toEqual({ key_authenticated: 3 });
  });

  it('fails on any one byte changed in a record, naming that record', async () => {
    const text = serializeBundle(await bundle());
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"evidence_id":"ev-2"'));
    const start = lines.slice(0, at).join('\n').length + 1;
    const end = start + lines[at]!.length;
    const buf = Buffer.from(text, 'utf8');
    for (let i = start; i < end; i++) {
      const changed = Buffer.from(buf);
      changed[i] = changed[i] === 0x41 ? 0x42 : 0x41; // 'A' or 'B': printable, always a change
      const verdict = await verifyBundleText(changed.toString('utf8'));
      expect(verdict.ok, `byte ${i - start}`).toBe(false);
      if (!verdict.ok) expect(verdict.record?.index, `byte ${i - start}: ${verdict.problem}`).toBe(2);
    }
  });

  it('names a tier the bundle’s registrations do not support, and a forged key', async () => {
    const b = await bundle();
    const lowered = structuredClone(b);
    lowered.trust.auditors[1]!.ceiling = 'unverified';
    expect(await verifyBundle(lowered)).toMatchObject({
      ok: false,
      record: { index: 1, seq: 1, evidence_id: 'ev-1' },
      problem: 'trust tier of auditor ext: recorded key_authenticated, recomputed unverified',
    });
    const forged = structuredClone(b);
    forged.trust.attester_keys[0]!.public_key = createAttestationAgent({
      provider: 'MOCK',
    }).binding().public_key;
    expect(await verifyBundle(forged)).toMatchObject({ ok: false, record: { index: 1 } });
  });

  it('refuses a bundle whose last record was dropped, and a wrong header', async () => {
    const b = await bundle();
    const dropped = { ...structuredClone(b), records: [b.records[0]!, b.records[1]!] };
    const v = await verifyBundle(dropped);
    expect(v).toMatchObject({
      ok: false,
      problem: 'bundle header: chain.last_seq is not the last record’s',
    });
    expect(await verifyBundle({ ...b, format: 'x' })).toMatchObject({ ok: false, problem: /^bundle header/ });
  });

  it('locates a broken line, or blames the header', () => {
    expect(locateBreak('{\n  "records": [\n{"a":1},\n{"evidence_id":"x",\n]\n}')).toEqual({
      index: 1,
      line: 4,
      id: 'x',
    });
    expect(locateBreak('{ "a": ')).toEqual({ header: true });
  });
});
