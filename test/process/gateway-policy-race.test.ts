// A policy refreshed while the auditors are still answering: the Evidence
// must name the policy version that actually decided, never a newer label on
// an older decision.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttestationAgent } from '../../attestation/agent.ts';
import type { Vocabulary } from '../../auditors/sdk/types.ts';
import type { ChainAuditor } from '../../gateway/auditors.ts';
import { Pipeline } from '../../gateway/pipeline.ts';
import type { EffectivePolicy } from '../../gateway/policy-source.ts';

const vocabulary: Vocabulary = {
  auditor_id: 'slow',
  version: '1',
  phases: ['request'],
  vocabulary: [{ name: 'slow_score', type: 'score_normalized', description: '', value_schema: {} }],
};

const version = (v: string, cedar?: string): EffectivePolicy => ({
  policy_id: 'acme.org',
  policy_version: v,
  chain: [
    { id: 'acme.org', version: v, spec: { scope: 'org', scopeId: 'acme', ...(cedar ? { cedar } : {}) } },
  ],
});

let current = version('1');
let auditor: Server;

beforeAll(async () => {
  // Answers /claims only after switching the policy, as a refresh landing mid-request would.
  auditor = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      current = version('2', '@id("block-all")\nforbid (principal, action, resource);');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          status: 'success',
          claims: [{ name: 'slow_score', type: 'score_normalized', value: 0.1 }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => auditor.listen(0, '127.0.0.1', resolve));
});

afterAll(() => auditor?.close());

describe('gateway pipeline', () => {
  it('decides with the policy that is current when it decides, and says so in the Evidence', async () => {
    const chain: ChainAuditor[] = [
      {
        id: 'slow',
        url: `http://127.0.0.1:${(auditor.address() as AddressInfo).port}`,
        deploymentMode: 'sidecar',
        auth: { type: 'none' },
        vocabulary,
      },
    ];
    const pipeline = new Pipeline({
      agentId: 'ns.a',
      workspaceId: 'ns',
      sessionId: 's',
      attesterId: 'gateway/test',
      auditMode: 'enforce',
      timeoutMs: 5_000,
      auditors: () => chain,
      policy: { current: () => current, problem: () => '', refresh: async () => {} },
      agent: createAttestationAgent({ provider: 'MOCK' }),
    });
    const r = await pipeline.evaluate({ data: { input: 'hello' }, phase: 'request' });
    expect(r.evidence.policy_version).toBe('2');
    expect(r.evidence.decision).toBe('deny');
    expect(r.evidence.decision_reasons).toContain('forbid: acme.org/block-all');
  });
});
