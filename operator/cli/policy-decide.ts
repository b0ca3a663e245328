// Deciding claims under a policy as the Gateway does (gateway/pipeline.ts):
// the chain compiled to one Cedar policy set against the schema of the
// vocabularies, one `CedarEngine` decision per request, a compile problem or
// a failed auditor a deny. Also the claim fixtures of `platform policy test`:
// a list of `{name, claims: {claim: value}, expect?, phase?}`.
import type { Claim, ClaimType, Vocabulary } from '../../auditors/sdk/types.ts';
import { vocabulariesOf } from '../../api/registry/auditors.ts';
import type { AuditorOutcome } from '../../evidence/types.ts';
import { applicableParents } from '../../policy/admission.ts';
import { withAuditorFailures } from '../../policy/auditor-failures.ts';
import { CedarEngine, type Decision } from '../../policy/cedar-engine.ts';
import { compilePolicySet } from '../../policy/cedar-gen.ts';
import { cedarSchema, type ClaimInfo } from '../../policy/cedar-schema.ts';
import { chainVersion } from '../../policy/save.ts';
import type { PolicyRecord } from '../../policy/types.ts';
import { usageError } from './errors.ts';
import type { PolicyDoc } from './policy-file.ts';

/** An auditor as `GET /v1/auditors` lists it, with the claims it declares. */
export interface ListedAuditorClaims {
  auditor_id: string;
  builtin?: boolean;
  claims?: { name: string; type?: string }[];
}

/** The built-in vocabularies, and those of registered auditors as the Verifier lists them (both phases). */
export function knownVocabularies(listed: readonly ListedAuditorClaims[] = []): Vocabulary[] {
  const builtin = vocabulariesOf([]);
  const ids = new Set(builtin.map((v) => v.auditor_id));
  const registered = listed
    .filter((a) => !a.builtin && !ids.has(a.auditor_id) && (a.claims?.length ?? 0) > 0)
    .map((a) => ({
      auditor_id: a.auditor_id,
      version: '1',
      phases: ['request', 'response'] as Vocabulary['phases'],
      vocabulary: (a.claims ?? []).map((c) => ({
        name: c.name,
        type: (c.type ?? 'string') as ClaimType,
        description: '',
        value_schema: {},
      })),
    }));
  return [...builtin, ...registered];
}

/** The policy of the file to evaluate: the one named, the only one, or the only workspace policy. */
export function targetDoc(docs: PolicyDoc[], name: string | undefined): PolicyDoc {
  if (name !== undefined) {
    const found = docs.find((d) => d.id === name || d.id.slice(d.id.indexOf('.') + 1) === name);
    if (!found)
      throw usageError(
        `no policy '${name}' in the file`,
        `the file holds ${docs.map((d) => d.id).join(', ')}`,
      );
    return found;
  }
  if (docs.length === 1) return docs[0]!;
  const workspace = docs.filter((d) => d.record.spec.scope === 'workspace');
  if (workspace.length === 1) return workspace[0]!;
  throw usageError(
    `the file holds ${docs.length} policies`,
    `name the one to test with --policy (${docs.map((d) => d.id).join(', ')})`,
  );
}

/** The chain the Verifier would build for `target` from the file alone: the file's org policies above it, then it. */
export function fileChain(docs: PolicyDoc[], target: PolicyDoc): PolicyRecord[] {
  const others = docs.filter((d) => d !== target).map((d) => d.record);
  return [...applicableParents(target.record, others), target.record];
}

export interface Evaluator {
  policyId: string;
  version: string;
  problems: string[];
  decide(
    request: { agentId: string; workspaceId: string; phase: string; claims: Claim[] },
    outcomes?: AuditorOutcome[],
  ): Decision;
}

/** Policy sets are cached in the wasm module by id: each evaluator loads under its own. */
let loaded = 0;

/** Compiles and loads `chain` (target last) once; each decision as the Gateway makes it. */
export function evaluator(chain: PolicyRecord[], claims: Map<string, ClaimInfo>): Evaluator {
  const target = chain[chain.length - 1]!;
  const version = chainVersion(chain);
  const engine = new CedarEngine();
  const set = compilePolicySet(chain, claims);
  const engineId = `${target.id}#cli-${++loaded}`;
  const problems = [...set.problems, ...engine.load(engineId, version, set.policies, cedarSchema(claims))];
  return {
    policyId: target.id,
    version,
    problems,
    decide(request, outcomes = []) {
      const d: Decision = problems.length
        ? { decision: 'deny', reasons: problems.map((p) => `PolicyError: ${p}`), determining: [] }
        : engine.decide(engineId, request, claims);
      return withAuditorFailures(d, outcomes);
    },
  };
}

export interface Fixture {
  name: string;
  claims: Claim[];
  expect?: 'allow' | 'deny';
  phase: string;
  agentId: string;
  workspaceId: string;
}

/** A claim's type when no vocabulary declares it, from its value. */
export function inferType(value: unknown): ClaimType {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'string_list';
  if (typeof value === 'number') return Number.isInteger(value) && value > 1 ? 'count' : 'score_normalized';
  return 'object';
}

function claimOf(name: string, raw: unknown, claims: Map<string, ClaimInfo>): Claim {
  const full = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'value' in raw;
  const given = (full ? raw : { value: raw }) as { value: unknown; type?: ClaimType; confidence?: number };
  const type = given.type ?? claims.get(name)?.type ?? inferType(given.value);
  return {
    name,
    type,
    value: given.value,
    ...(given.confidence === undefined ? {} : { confidence: given.confidence }),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function fixtureOf(raw: unknown, where: string, claims: Map<string, ClaimInfo>): Fixture {
  if (!isObject(raw) || typeof raw.name !== 'string' || !isObject(raw.claims))
    throw usageError(`${where}: a fixture is {name, claims: {claim: value}, expect?: allow|deny, phase?}`);
  if (raw.expect !== undefined && raw.expect !== 'allow' && raw.expect !== 'deny')
    throw usageError(`${where} (${raw.name}): expect is allow or deny`);
  const str = (v: unknown, fallback: string): string => (typeof v === 'string' && v ? v : fallback);
  return {
    name: raw.name,
    claims: Object.entries(raw.claims).map(([name, value]) => claimOf(name, value, claims)),
    ...(raw.expect === undefined ? {} : { expect: raw.expect }),
    phase: str(raw.phase, 'request'),
    agentId: str(raw.agent_id, 'fixture.agent'),
    workspaceId: str(raw.workspace_id, 'fixture'),
  };
}

/** The fixtures of one parsed file: a list, or `{fixtures: [...]}`. */
export function fixturesOf(parsed: unknown, file: string, claims: Map<string, ClaimInfo>): Fixture[] {
  const list = Array.isArray(parsed) ? parsed : isObject(parsed) ? parsed.fixtures : undefined;
  if (!Array.isArray(list)) throw usageError(`${file}: expected a list of fixtures (or {fixtures: [...]})`);
  return list.map((raw, i) => fixtureOf(raw, `${file}: fixture ${i + 1}`, claims));
}
