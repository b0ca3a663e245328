// `platform policy test --replay <agent|workspace> --since D`: the claims of
// recorded Evidence re-decided under the policy in the file, as the Gateway
// would decide them had the policy been pushed, and the calls whose decision
// would change. Reads only; nothing is pushed. The chain (decision 201): for a
// workspace policy, its org parents as the Verifier holds them (the
// effective chain of the stored policy, else the org policies the caller can
// read), the file's own org policies replacing those of the same id, then the
// policy; for an org policy, it replaces or joins the org part of the chain
// each Evidence was decided with. The claims are typed by the vocabularies of
// the auditors the agent's Evidence names.
import type { Decision } from '../../policy/cedar-engine.ts';
import { indexVocabularies } from '../../policy/cedar-schema.ts';
import { applicableParents } from '../../policy/admission.ts';
import type { PolicyRecord } from '../../policy/types.ts';
import type { StoredEvidence } from '../../evidence/store.ts';
import type { ApiClient } from './client.ts';
import { agentEvidence, workspaceAgents, type TimeRange } from './evidence-fetch.ts';
import { evaluator, knownVocabularies, type Evaluator, type ListedAuditorClaims } from './policy-decide.ts';

export interface ReplayChange {
  evidence_id: string;
  agent_id: string;
  generated_at: string;
  phase: string;
  old: 'allow' | 'deny';
  new: 'allow' | 'deny';
  /** Why the new decision is what it is: the forbids (or errors) that deny, or the permits that allow. */
  reasons: string[];
  /** What the recorded decision said. */
  old_reasons: string[];
}

export interface ReplayReport {
  policy_id: string;
  agents: string[];
  replayed: number;
  changed: number;
  allow_to_deny: number;
  deny_to_allow: number;
  /** Evidence whose new chain does not compile: every call would be denied. */
  problems: string[];
  changes: ReplayChange[];
}

type Fetch = (path: string) => Promise<unknown>;

/** Whatever `path` answers with, or undefined when it is absent or not for this caller. */
function fetcher(client: ApiClient): Fetch {
  return async (path) => {
    const r = await client.get(path, { accept: [403, 404] });
    return r.status === 200 ? r.body : undefined;
  };
}

/** The org policies the Verifier puts above a workspace policy (the file's own org policies win). */
async function workspaceParents(
  get: Fetch,
  target: PolicyRecord,
  fileParents: PolicyRecord[],
): Promise<PolicyRecord[]> {
  const effective = (await get(`/v1/policies/${encodeURIComponent(target.id)}/effective`)) as
    { chain?: PolicyRecord[] } | undefined;
  let server = effective?.chain?.filter((p) => p.id !== target.id);
  if (!server) {
    const list = (await get('/v1/policies')) as { items?: PolicyRecord[] } | undefined;
    server = applicableParents(target, list?.items ?? []);
  }
  const mine = new Set(fileParents.map((p) => p.id));
  return [...server.filter((p) => !mine.has(p.id)), ...fileParents];
}

/** The chain an Evidence was decided with, the org `target` put in its org part. */
async function withOrgPolicy(get: Fetch, target: PolicyRecord, policyId: string): Promise<PolicyRecord[]> {
  const effective = (await get(`/v1/policies/${encodeURIComponent(policyId)}/effective`)) as
    { chain?: PolicyRecord[] } | undefined;
  const old = (effective?.chain ?? []).filter((p) => p.id !== target.id);
  const orgs = old.filter((p) => p.spec.scope === 'org');
  const rest = old.filter((p) => p.spec.scope !== 'org');
  return rest.length === 0 ? [...orgs, target] : [...orgs, target, ...rest];
}

export interface ReplayInput {
  client: ApiClient;
  /** The file's chain: its org policies above the target, then the target. */
  chain: PolicyRecord[];
  /** An agent id (`<namespace>.<name>`) or a workspace (namespace). */
  subject: string;
  range: TimeRange;
}

async function chainsFor(
  get: Fetch,
  input: ReplayInput,
): Promise<(e: StoredEvidence) => Promise<PolicyRecord[]>> {
  const target = input.chain[input.chain.length - 1]!;
  if (target.spec.scope !== 'org') {
    const chain = [...(await workspaceParents(get, target, input.chain.slice(0, -1))), target];
    return () => Promise.resolve(chain);
  }
  const cache = new Map<string, Promise<PolicyRecord[]>>();
  return (e) => {
    const id = e.evidence.policy_id;
    if (!cache.has(id)) cache.set(id, withOrgPolicy(get, target, id));
    return cache.get(id)!;
  };
}

function changeOf(e: StoredEvidence, d: Decision): ReplayChange {
  const ev = e.evidence;
  return {
    evidence_id: ev.evidence_id,
    agent_id: ev.agent_id,
    generated_at: ev.generated_at,
    phase: ev.phase,
    old: ev.decision,
    new: d.decision,
    reasons: d.decision === 'deny' ? d.reasons : d.determining,
    old_reasons: ev.decision_reasons,
  };
}

/** The vocabularies of the auditors `records` name: the chain of the agent's pod. */
function claimsOf(records: StoredEvidence[], listed: ListedAuditorClaims[]) {
  const ids = new Set(records.flatMap((r) => (r.evidence.auditors ?? []).map((a) => a.auditor_id)));
  return indexVocabularies(knownVocabularies(listed).filter((v) => ids.has(v.auditor_id))).claims;
}

function tally(report: ReplayReport, change: ReplayChange): void {
  report.changed++;
  if (change.new === 'deny') report.allow_to_deny++;
  else report.deny_to_allow++;
  report.changes.push(change);
}

export async function replay(input: ReplayInput): Promise<ReplayReport> {
  const get = fetcher(input.client);
  const agents = input.subject.includes('.')
    ? [input.subject]
    : await workspaceAgents(input.client, input.subject);
  const listed = ((await get('/v1/auditors')) as { items?: ListedAuditorClaims[] } | undefined)?.items ?? [];
  const chainOf = await chainsFor(get, input);
  const target = input.chain[input.chain.length - 1]!;
  const report: ReplayReport = {
    policy_id: target.id,
    agents,
    replayed: 0,
    changed: 0,
    allow_to_deny: 0,
    deny_to_allow: 0,
    problems: [],
    changes: [],
  };
  for (const agentId of agents) {
    const records = await agentEvidence(input.client, agentId, input.range);
    const claims = claimsOf(records, listed);
    const evaluators = new Map<string, Evaluator>();
    for (const e of records) {
      const chain = await chainOf(e);
      const key = chain.map((p) => p.id).join(',');
      if (!evaluators.has(key)) evaluators.set(key, evaluator(chain, claims));
      const ev = evaluators.get(key)!;
      report.problems.push(...ev.problems.filter((p) => !report.problems.includes(p)));
      const { agent_id, workspace_id, phase, claims: recorded, auditors } = e.evidence;
      const d = ev.decide(
        { agentId: agent_id, workspaceId: workspace_id, phase, claims: recorded },
        auditors,
      );
      report.replayed++;
      if (d.decision !== e.evidence.decision) tally(report, changeOf(e, d));
    }
  }
  return report;
}
