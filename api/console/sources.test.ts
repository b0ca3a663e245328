import { describe, expect, it } from 'vitest';
import type { StoredEvidence } from '../../evidence/store.ts';
import { evidenceEvents, logEvent, logLineSeverity, MAX_LOG_LINE } from './sources.ts';
import { agentPodOf, splitTimestamp } from './pod-logs.ts';

function stored(over: Partial<StoredEvidence['evidence']> = {}): StoredEvidence {
  const evidence = {
    evidence_id: 'ev-1',
    agent_id: 'ns.bot',
    trace_id: 't',
    phase: 'request',
    model_id: 'gpt',
    generated_at: '2026-11-25T05:00:00.000Z',
    decision: 'deny',
    blocked: true,
    audit_mode: 'enforce',
    decision_reasons: ['forbid: platform:default/judge-block'],
    policy_id: 'p',
    claims: [
      { name: 'injection_detected', type: 'boolean', value: true },
      { name: 'judge_risk_detected', type: 'boolean', value: true },
    ],
    auditors: [
      { auditor_id: 'injection-detector', status: 'ok', claims: ['injection_detected'], attempts: 1 },
      { auditor_id: 'judge', status: 'ok', claims: ['judge_risk_detected'], attempts: 1 },
      {
        auditor_id: 'pii-detector',
        status: 'error',
        claims: [],
        attempts: 3,
        error: { code: 'TIMEOUT', message: 'slow', retryable: true },
      },
    ],
    ...over,
  };
  return {
    agent_id: 'ns.bot',
    evidence,
    result: { trust_tier: 'tee_attested' },
  } as unknown as StoredEvidence;
}

describe('console events from Evidence', () => {
  it('gives the model call, the decision (named auditor, whole chain) and an error per failed auditor', () => {
    const [call, decision, error, ...rest] = evidenceEvents(stored());
    expect(rest).toEqual([]);
    expect(call).toMatchObject({ type: 'model_call', agent_id: 'ns.bot', payload: { model: 'gpt' } });
    expect(decision).toMatchObject({
      type: 'chain_decision',
      severity: 'error',
      auditor: 'injection-detector',
      auditors: ['injection-detector', 'judge', 'pii-detector'],
      payload: { decision: 'deny', blocked: true },
    });
    expect(error).toMatchObject({
      type: 'error',
      auditor: 'pii-detector',
      payload: { error: { code: 'TIMEOUT' } },
    });
    expect(new Set([call, decision, error].map((e) => e?.key)).size).toBe(3);
  });

  it('an allowed call is info; an observed deny a warning; a subagent is carried when well-formed', () => {
    const allow = evidenceEvents(stored({ decision: 'allow', blocked: false, auditors: [] }))[1];
    expect(allow?.severity).toBe('info');
    const observed = evidenceEvents(stored({ blocked: false, audit_mode: 'observe', auditors: [] }))[1];
    expect(observed?.severity).toBe('warning');
    const sub = evidenceEvents(stored({ subagent: 'researcher' } as never))[0];
    expect(sub?.subagent).toBe('researcher');
    const bad = evidenceEvents(stored({ subagent: '\u0000x' } as never))[0];
    expect(bad?.subagent).toBeNull();
  });
});

describe('console events from the agent log', () => {
  it.each([
    ['plain text', 'info'],
    ['{"level":"error","msg":"x"}', 'error'],
    ['{"level":50}', 'error'],
    ['{"level":60}', 'critical'],
    ['{"severity":"WARNING"}', 'warning'],
    ['{"level":"debug"}', 'debug'],
    ['{not json', 'info'],
  ])('%s is %s', (line, severity) => {
    expect(logLineSeverity(line)).toBe(severity);
  });

  it('cuts a long line and keys it by pod, container, time and order', () => {
    const e = logEvent({
      agentId: 'ns.bot',
      pod: 'p',
      podUid: 'u',
      container: 'agent',
      timestamp: 't',
      text: 'x'.repeat(MAX_LOG_LINE + 5),
      ordinal: 2,
    });
    expect((e.payload.line as string).length).toBe(MAX_LOG_LINE);
    expect(e.payload.truncated).toBe(true);
    expect(e.key).toBe('log:u:agent:t:2');
  });

  it("splits the kubelet's timestamp from the line", () => {
    expect(splitTimestamp('2026-11-25T05:00:00.123456789Z hello world', 'f')).toEqual({
      timestamp: '2026-11-25T05:00:00.123456789Z',
      text: 'hello world',
    });
    expect(splitTimestamp('hello world', 'f')).toEqual({ timestamp: 'f', text: 'hello world' });
  });

  it("follows the newest running pod's own container, not a sidecar", () => {
    const pod = (name: string, phase: string, created: string) => ({
      metadata: { name, uid: `${name}-uid`, creationTimestamp: created as unknown as Date },
      spec: { containers: [{ name: 'platform-gateway' }, { name: 'agent' }] },
      status: { phase },
    });
    expect(
      agentPodOf([
        pod('old', 'Running', '2026-11-25T01:00:00Z'),
        pod('new', 'Running', '2026-11-25T02:00:00Z'),
        pod('newest', 'Pending', '2026-11-25T03:00:00Z'),
      ]),
    ).toEqual({ name: 'new', uid: 'new-uid', container: 'agent' });
    expect(agentPodOf([])).toBeUndefined();
  });
});
