// The one Cedar decision per request. Policy sets and the schema are parsed
// once and cached inside the wasm module (`preparsePolicySet`), then every
// decision is a `statefulIsAuthorized` call. Deny on any doubt: an unknown
// policy id (`PolicyNotFound`), a context that fails its types
// (`TypeMismatch`), and any policy that errors while evaluating (`KeyError`
// for a claim no auditor produced) are denies with the reason, whatever the
// permits say; Cedar alone would skip an erroring forbid.
import {
  preparsePolicySet,
  preparseSchema,
  statefulIsAuthorized,
  validate,
  type AuthorizationError,
  type Response as CedarResponse,
  type SchemaJson,
} from '@cedar-policy/cedar-wasm/nodejs';
import { ACTION_ID, ACTION_TYPE, PRINCIPAL_TYPE, RESOURCE_TYPE, type ClaimInfo } from './cedar-schema.ts';
import { buildContext, type RequestFacts } from './context.ts';
import { contextUsage, KEEP_ALL, policyJsons, type ContextUsage } from './context-usage.ts';
import { phasePlan } from './phase-sets.ts';

export interface Decision {
  decision: 'allow' | 'deny';
  reasons: string[];
  /** Policy ids whose effect decided (forbids on deny, permits on allow). */
  determining: string[];
}

export interface LoadedPolicy {
  policyId: string;
  version: string;
}

const OPTIONAL_ACCESS = /unable to guarantee safety of access to optional attribute/;

/**
 * Strict validation against the schema. Reads of optional claim attributes
 * are accepted: at run time a missing claim is a `KeyError` deny, not a skip.
 */
export function validatePolicies(policies: Record<string, string>, schema: SchemaJson<string>): string[] {
  const answer = validate({
    schema,
    policies: { staticPolicies: policies },
    validationSettings: { mode: 'strict' },
  });
  if (answer.type === 'failure') return answer.errors.map((e) => e.message);
  return answer.validationErrors
    .filter((e) => !OPTIONAL_ACCESS.test(e.error.message))
    .map((e) => `policy ${e.policyId}: ${e.error.message}`);
}

function errorReason(e: AuthorizationError): string {
  const missing = /does not have the attribute `([^`]+)`/.exec(e.error.message);
  if (missing)
    return `KeyError: claim '${missing[1]}' read by policy '${e.policyId}' was not produced by any auditor`;
  if (/type error|expected/i.test(e.error.message))
    return `TypeMismatch: policy '${e.policyId}': ${e.error.message}`;
  return `EvaluationError: policy '${e.policyId}': ${e.error.message}`;
}

interface Entry extends LoadedPolicy {
  setId: string;
  schemaName?: string;
  /** What the set can read; the context carries only that (all of it when validating requests). */
  usage: ContextUsage;
  /** Phase → the pre-parsed subset that can apply in it; `otherSetId` for phases no guard names. */
  phaseSets: Map<string, string>;
  otherSetId: string;
  /** Policy id → its place in the set: reasons come out in this order, not Cedar's hash order. */
  order: Map<string, number>;
}

type PhaseSets = Pick<Entry, 'phaseSets' | 'otherSetId'>;

/** Pre-parses the per-phase subsets of `policies` (reusing `setId` for the whole set). */
function preparsePhaseSets(
  setId: string,
  policies: Record<string, string>,
  jsons: Map<string, unknown> | undefined,
): PhaseSets | string[] {
  const all = Object.keys(policies);
  const plan = phasePlan(jsons, all);
  let n = 0;
  const prepare = (ids: string[]): string | string[] => {
    if (ids.length === all.length) return setId;
    const id = `${setId}/${++n}`;
    const staticPolicies = Object.fromEntries(ids.map((p) => [p, policies[p]!]));
    const parsed = preparsePolicySet(id, { staticPolicies });
    return parsed.type === 'failure' ? parsed.errors.map((e) => e.message) : id;
  };
  const phaseSets = new Map<string, string>();
  for (const [phase, ids] of plan.byPhase) {
    const id = prepare(ids);
    if (typeof id !== 'string') return id;
    phaseSets.set(phase, id);
  }
  const otherSetId = prepare(plan.other);
  return typeof otherSetId === 'string' ? { phaseSets, otherSetId } : otherSetId;
}

/** `items` sorted by their policy's place in the set. */
function inSetOrder<T>(items: T[], order: Map<string, number>, id: (t: T) => string): T[] {
  if (items.length < 2) return items;
  const at = (t: T) => order.get(id(t)) ?? Number.MAX_SAFE_INTEGER;
  return [...items].sort((a, b) => at(a) - at(b));
}

/** The id of the prepared policy set to evaluate in `phase`. */
function setIdFor(entry: Entry, phase: unknown): string {
  // Without the policies whose phase guard is false here: same decision, fewer evaluations.
  return typeof phase === 'string' ? (entry.phaseSets.get(phase) ?? entry.otherSetId) : entry.setId;
}

/** Cedar's answer as a decision: any evaluation error denies; reasons name the forbids that fired. */
function decisionOf(response: CedarResponse, order: Map<string, number>): Decision {
  const { decision, diagnostics } = response;
  const errors = inSetOrder(diagnostics.errors, order, (e) => e.policyId);
  if (errors.length > 0) return deny(errors.map(errorReason));
  const determining = inSetOrder(diagnostics.reason, order, (id) => id);
  if (decision === 'allow') return { decision, reasons: [], determining };
  const reasons = determining.length
    ? determining.map((id) => `forbid: ${id}`)
    : ['no permit applies (default deny)'];
  return { decision, reasons, determining };
}

const ACTION = { type: ACTION_TYPE, id: ACTION_ID };

export class CedarEngine {
  private readonly loaded = new Map<string, Entry>();
  /**
   * The wasm module cannot free a pre-parsed set, but re-parsing under an id
   * replaces what was cached there. Each policy alternates between two id
   * slots: the live set stays intact until its successor has fully parsed,
   * and reloads reuse memory instead of growing it.
   */
  private readonly slots = new Map<string, 0 | 1>();

  /**
   * `validateRequests`: also let Cedar validate each request against the schema
   * (slower; the context is already checked). `fastPath`: pass Cedar only the
   * attributes the set reads and only the policies that can apply in the
   * request's phase (off: everything, the reference the tests compare with).
   */
  constructor(
    private readonly validateRequests = false,
    private readonly fastPath = true,
  ) {}

  /** Parses and caches a policy set under `policyId`; returns the parse problems (none when loaded). */
  load(
    policyId: string,
    version: string,
    policies: Record<string, string>,
    schema?: SchemaJson<string>,
  ): string[] {
    const slot = this.slots.get(policyId) === 0 ? 1 : 0;
    const setId = `set:${policyId}#${slot}`;
    const parsed = preparsePolicySet(setId, { staticPolicies: policies });
    if (parsed.type === 'failure') return parsed.errors.map((e) => e.message);
    let schemaName: string | undefined;
    if (schema) {
      schemaName = `schema:${policyId}#${slot}`;
      const s = preparseSchema(schemaName, schema);
      if (s.type === 'failure') return s.errors.map((e) => `schema: ${e.message}`);
    }
    const jsons = this.fastPath ? policyJsons(policies) : undefined;
    const usage = schemaName && this.validateRequests ? KEEP_ALL : contextUsage(jsons);
    const sets = preparsePhaseSets(setId, policies, jsons);
    if (Array.isArray(sets)) return sets;
    const order = new Map(Object.keys(policies).map((id, i) => [id, i]));
    this.slots.set(policyId, slot);
    this.loaded.set(policyId, {
      policyId,
      version,
      setId,
      usage,
      ...sets,
      order,
      ...(schemaName ? { schemaName } : {}),
    });
    return [];
  }

  unload(policyId: string): void {
    this.loaded.delete(policyId);
  }

  has(policyId: string): LoadedPolicy | undefined {
    return this.loaded.get(policyId);
  }

  decide(policyId: string, facts: RequestFacts, claims: Map<string, ClaimInfo>): Decision {
    const entry = this.loaded.get(policyId);
    if (!entry) return deny([`PolicyNotFound: no policy '${policyId}' is registered`]);
    const built = buildContext(facts, claims, entry.usage);
    if (!built.ok) return deny([built.reason]);
    const answer = statefulIsAuthorized({
      principal: { type: PRINCIPAL_TYPE, id: facts.agentId || 'unknown' },
      action: ACTION,
      resource: { type: RESOURCE_TYPE, id: facts.phase },
      context: built.context,
      preparsedPolicySetId: setIdFor(entry, facts.phase),
      entities: [],
      // The context was type-checked against the vocabularies above; Cedar's own
      // request validation would repeat it at several times the cost.
      ...(entry.schemaName && this.validateRequests
        ? { preparsedSchemaName: entry.schemaName, validateRequest: true }
        : {}),
    });
    if (answer.type === 'failure') {
      return deny(answer.errors.map((e) => `TypeMismatch: request context rejected: ${e.message}`));
    }
    return decisionOf(answer.response, entry.order);
  }
}

function deny(reasons: string[]): Decision {
  return { decision: 'deny', reasons, determining: [] };
}
