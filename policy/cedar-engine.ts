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
  type SchemaJson,
} from '@cedar-policy/cedar-wasm/nodejs';
import { ACTION_ID, ACTION_TYPE, PRINCIPAL_TYPE, RESOURCE_TYPE, type ClaimInfo } from './cedar-schema.ts';
import { buildContext, type RequestFacts } from './context.ts';

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

export class CedarEngine {
  private readonly loaded = new Map<string, LoadedPolicy & { setId: string; schemaName?: string }>();
  private generation = 0;

  /** Also let Cedar validate each request against the schema (slower; the context is already checked). */
  constructor(private readonly validateRequests = false) {}

  /** Parses and caches a policy set under `policyId`; returns the parse problems (none when loaded). */
  load(
    policyId: string,
    version: string,
    policies: Record<string, string>,
    schema?: SchemaJson<string>,
  ): string[] {
    const setId = `set-${++this.generation}`;
    const parsed = preparsePolicySet(setId, { staticPolicies: policies });
    if (parsed.type === 'failure') return parsed.errors.map((e) => e.message);
    let schemaName: string | undefined;
    if (schema) {
      schemaName = `schema-${this.generation}`;
      const s = preparseSchema(schemaName, schema);
      if (s.type === 'failure') return s.errors.map((e) => `schema: ${e.message}`);
    }
    this.loaded.set(policyId, { policyId, version, setId, ...(schemaName ? { schemaName } : {}) });
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
    const built = buildContext(facts, claims);
    if (!built.ok) return deny([built.reason]);
    const answer = statefulIsAuthorized({
      principal: { type: PRINCIPAL_TYPE, id: facts.agentId || 'unknown' },
      action: { type: ACTION_TYPE, id: ACTION_ID },
      resource: { type: RESOURCE_TYPE, id: facts.phase },
      context: built.context,
      preparsedPolicySetId: entry.setId,
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
    const { decision, diagnostics } = answer.response;
    if (diagnostics.errors.length > 0) return deny(diagnostics.errors.map(errorReason));
    if (decision === 'deny') {
      const reasons = diagnostics.reason.length
        ? diagnostics.reason.map((id) => `forbid: ${id}`)
        : ['no permit applies (default deny)'];
      return { decision, reasons, determining: diagnostics.reason };
    }
    return { decision, reasons: [], determining: diagnostics.reason };
  }
}

function deny(reasons: string[]): Decision {
  return { decision: 'deny', reasons, determining: [] };
}
