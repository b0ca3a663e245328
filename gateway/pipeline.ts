// One evaluation: every auditor of the chain in parallel (deadline, one
// retry), claims checked against vocabularies, one Cedar decision over the
// policy chain, one signed Evidence. A failing auditor is a recorded error
// and a deny, never a silent allow; observe mode records the deny and lets
// the request through.
import { randomUUID } from 'node:crypto';
import type { Claim, ClaimsRequest, RequestPhase } from '../auditors/sdk/types.ts';
import type { AttestationAgent } from '../attestation/agent.ts';
import { signEvidence } from '../evidence/sign.ts';
import { EVIDENCE_SCHEMA_VERSION, type AuditorOutcome, type Evidence } from '../evidence/types.ts';
import { withAuditorFailures } from '../policy/auditor-failures.ts';
import { compilePolicySet } from '../policy/cedar-gen.ts';
import { CedarEngine, type Decision } from '../policy/cedar-engine.ts';
import { cedarSchema, indexVocabularies, type ClaimInfo } from '../policy/cedar-schema.ts';
import { overridesFor, resolveDetection } from '../policy/resolve.ts';
import type { ResolvedDetection } from '../policy/types.ts';
import { callAuditor, type ChainAuditor } from './auditors.ts';
import type { PolicySource } from './policy-source.ts';

export interface PipelineOptions {
  agentId: string;
  workspaceId: string;
  sessionId: string;
  attesterId: string;
  auditMode: 'enforce' | 'observe';
  timeoutMs: number;
  auditors: () => ChainAuditor[];
  policy: PolicySource;
  agent: AttestationAgent;
}

export interface EvaluateInput {
  data: ClaimsRequest['data'];
  phase: RequestPhase;
  /** The auditors' `platform_context`, less the detection overrides: those come from the policy. */
  platform_context?: Omit<NonNullable<ClaimsRequest['platform_context']>, 'detection_overrides'>;
  /** The subagent that made the call (the agent runtime's `x-platform-subagent`), signed into the Evidence. */
  subagent?: string;
}

export interface EvaluateResult {
  evidence: Evidence;
  blocked: boolean;
  timings: { auditorsMs: number; cedarMs: number; totalMs: number; slowestAuditorMs: number };
}

interface Compiled {
  key: string;
  claims: Map<string, ClaimInfo>;
  detection: ResolvedDetection;
  problems: string[];
}

export class Pipeline {
  readonly engine = new CedarEngine();
  private compiled: Compiled | undefined;

  constructor(private readonly o: PipelineOptions) {}

  /** Recompiles when the policy version or the set of vocabularies changed. */
  private prepare(): Compiled {
    const policy = this.o.policy.current();
    const vocabularies = this.o.auditors().flatMap((a) => (a.vocabulary ? [a.vocabulary] : []));
    const key = `${policy?.policy_id}|${policy?.policy_version}|${vocabularies.map((v) => `${v.auditor_id}@${v.version}`).join(',')}`;
    if (this.compiled?.key === key) return this.compiled;
    const { claims, problems } = indexVocabularies(vocabularies);
    const detection = policy ? resolveDetection(policy.chain) : {};
    if (policy) {
      const set = compilePolicySet(policy.chain, claims);
      problems.push(...set.problems);
      problems.push(
        ...this.engine.load(policy.policy_id, policy.policy_version, set.policies, cedarSchema(claims)),
      );
    }
    this.compiled = { key, claims, detection, problems };
    return this.compiled;
  }

  /** '' when a policy is loaded and compiles, else why not. */
  readiness(): string {
    const c = this.prepare();
    return this.o.policy.current() ? c.problems.join('; ') : this.o.policy.problem() || 'no policy';
  }

  private decide(c: Compiled, phase: string, claims: Claim[], outcomes: AuditorOutcome[]): Decision {
    const policy = this.o.policy.current();
    const policyId = policy?.policy_id ?? this.o.policy.problem();
    if (c.problems.length > 0 && policy)
      return { decision: 'deny', reasons: c.problems.map((p) => `PolicyError: ${p}`), determining: [] };
    const d = this.o.policy.current()
      ? this.engine.decide(
          policyId,
          { agentId: this.o.agentId, workspaceId: this.o.workspaceId, phase, claims },
          c.claims,
        )
      : {
          decision: 'deny' as const,
          reasons: [`PolicyNotFound: ${this.o.policy.problem()}`],
          determining: [],
        };
    return withAuditorFailures(d, outcomes);
  }

  async evaluate(input: EvaluateInput): Promise<EvaluateResult> {
    const t0 = performance.now();
    const c = this.prepare();
    const traceId = input.platform_context?.trace_id ?? randomUUID();
    const chain = this.o.auditors().filter((a) => !a.vocabulary || a.vocabulary.phases.includes(input.phase));
    const calls = chain.map((a) => {
      const body: ClaimsRequest = {
        data: input.data,
        phase: input.phase,
        platform_context: {
          trace_id: traceId,
          agent_id: this.o.agentId,
          workspace_id: this.o.workspaceId,
          auditor_config: input.platform_context?.auditor_config ?? {},
          detection_overrides: overridesFor(c.detection, a.vocabulary),
        },
      };
      return callAuditor(a, body, this.o.timeoutMs);
    });
    const results = await Promise.all(calls);
    const t1 = performance.now();
    const claims = results.flatMap((r) => r.claims);
    const outcomes = results.map((r) => r.outcome);
    // The policy may have been refreshed while the auditors ran. Compile (and
    // load) what is current now: deciding and labelling the Evidence happen in
    // this same synchronous step, so the Evidence names the policy version that
    // actually decided.
    const decision = this.decide(this.prepare(), input.phase, claims, outcomes);
    const t2 = performance.now();
    const evidence = await this.sign(input, { traceId, claims, auditors: outcomes, decision });
    const slowest = Math.max(0, ...outcomes.map((o) => o.latency_ms));
    return {
      evidence,
      blocked: evidence.blocked,
      timings: {
        auditorsMs: t1 - t0,
        cedarMs: t2 - t1,
        totalMs: performance.now() - t0,
        slowestAuditorMs: slowest,
      },
    };
  }

  private sign(input: EvaluateInput, outcome: DecidedCall): Promise<Evidence> {
    const { traceId, claims, auditors, decision: d } = outcome;
    const policy = this.o.policy.current();
    const meta = input.data.metadata;
    return signEvidence(
      {
        schema_version: EVIDENCE_SCHEMA_VERSION,
        evidence_id: randomUUID(),
        attester_id: this.o.attesterId,
        attester_type: 'gateway',
        agent_id: this.o.agentId,
        workspace_id: this.o.workspaceId,
        trace_id: traceId,
        session_id: meta?.session_id || this.o.sessionId,
        ...callerOf(meta),
        ...(input.subagent ? { subagent: input.subagent } : {}),
        claims,
        decision: d.decision,
        decision_reasons: d.reasons,
        policy_id: policy?.policy_id ?? 'none',
        policy_version: policy?.policy_version ?? 'none',
        phase: input.phase,
        audit_mode: this.o.auditMode,
        blocked: d.decision === 'deny' && this.o.auditMode === 'enforce',
        generated_at: new Date().toISOString(),
        auditors,
        attestation: this.o.agent.binding(),
      },
      this.o.agent,
    );
  }
}

/** What one evaluation found and decided, to be signed as Evidence. */
interface DecidedCall {
  traceId: string;
  claims: Claim[];
  auditors: AuditorOutcome[];
  decision: Decision;
}

/** Who and what the call was for, as the request metadata names them (empty values left out). */
function callerOf(meta: EvaluateInput['data']['metadata']): Pick<Evidence, 'model_id' | 'user_id'> {
  return {
    ...(meta?.model_id ? { model_id: meta.model_id } : {}),
    ...(meta?.user_id ? { user_id: meta.user_id } : {}),
  };
}
