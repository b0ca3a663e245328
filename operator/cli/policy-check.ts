// `platform policy validate`: what saving an AuditorPolicy checks
// (policy/save.ts), done offline and reported one problem per line with
// file:line: the resource schema (crds/validators.ts) and the claim-name and
// setting-key rules the apiserver's CEL holds, each enforcement mode against
// its value's type and against the org policies of the same file, and the
// Cedar compile and strict validation against the schema generated from the
// auditors' vocabularies.
import { policySetTextToParts, validate, type DetailedError } from '@cedar-policy/cedar-wasm/nodejs';
import type { Vocabulary } from '../../auditors/sdk/types.ts';
import { validateResource } from '../../crds/validators.ts';
import { applicableParents } from '../../policy/admission.ts';
import { compilePolicySet, compileRule, ruleSpecOf } from '../../policy/cedar-gen.ts';
import { cedarSchema, indexVocabularies, type ClaimInfo } from '../../policy/cedar-schema.ts';
import { parentViolations, typeViolations, type Violation } from '../../policy/enforcement.ts';
import { POLICY_ID } from '../../policy/service.ts';
import type { PolicyDoc, Problem } from './policy-file.ts';

const CLAIM_NAME = /^[a-z][a-z0-9_]*([.][a-z][a-z0-9_]*)*$/;
const SETTING_KEY = /^[a-z][a-z0-9_]*$/;
/** Reads of optional claims are run-time KeyErrors (a deny), not compile errors: as policy/cedar-engine.ts. */
const OPTIONAL_ACCESS = /unable to guarantee safety of access to optional attribute/;

const at = (doc: PolicyDoc, pointer: string, message: string): Problem => ({
  file: doc.file,
  line: doc.lineOf(pointer),
  message,
});

function shapeProblems(doc: PolicyDoc): Problem[] {
  if (doc.value.kind !== 'AuditorPolicy')
    return [
      at(doc, '/kind', `kind ${JSON.stringify(doc.value.kind)}: only AuditorPolicy documents are policies`),
    ];
  const shape = validateResource(doc.value);
  const out = shape.valid
    ? []
    : shape.issues.map((i) =>
        at(doc, i.pointer, `${i.pointer || '/'}: ${i.message}${i.expected ? ` (${i.expected})` : ''}`),
      );
  if (out.length === 0 && !POLICY_ID.test(doc.id))
    out.push(
      at(
        doc,
        '/metadata',
        `metadata: name and namespace make the policy id ${doc.id}, not <namespace>.<name>`,
      ),
    );
  return out;
}

/** The CEL rules of the CRD (x-kubernetes-validations), which the schema validator leaves to the apiserver. */
function namingProblems(doc: PolicyDoc): Problem[] {
  const out: Problem[] = [];
  for (const [claim, settings] of Object.entries(doc.record.spec.detection ?? {})) {
    if (!CLAIM_NAME.test(claim))
      out.push(
        at(
          doc,
          `/spec/detection/${claim}`,
          `detection.${claim}: claim names are snake_case, dotted groups allowed`,
        ),
      );
    for (const key of Object.keys(settings))
      if (!SETTING_KEY.test(key))
        out.push(
          at(
            doc,
            `/spec/detection/${claim}/${key}`,
            `detection.${claim}.${key}: setting keys are snake_case`,
          ),
        );
  }
  return out;
}

function violationProblem(doc: PolicyDoc, v: Violation): Problem {
  return at(doc, `/${['spec', ...v.field.split('.')].join('/')}`, v.message);
}

function enforcementProblems(doc: PolicyDoc, all: PolicyDoc[]): Problem[] {
  const others = all.filter((d) => d !== doc && d.value.kind === 'AuditorPolicy').map((d) => d.record);
  const parents = applicableParents(doc.record, others);
  const detection = doc.record.spec.detection;
  return [...typeViolations(detection), ...parentViolations(detection, parents)].map((v) =>
    violationProblem(doc, v),
  );
}

function ruleProblems(doc: PolicyDoc, claims: Map<string, ClaimInfo>): Problem[] {
  return (doc.record.spec.responseRules ?? []).flatMap((rule, i) => {
    try {
      compileRule(ruleSpecOf(rule, claims), claims);
      return [];
    } catch (err) {
      return [
        at(doc, `/spec/responseRules/${i}`, `responseRules[${i}] ${rule.name}: ${(err as Error).message}`),
      ];
    }
  });
}

const firstOffset = (e: DetailedError): number => e.sourceLocations?.[0]?.start ?? 0;

function cedarParseProblems(doc: PolicyDoc): Problem[] | undefined {
  const cedar = doc.record.spec.cedar;
  if (!cedar?.trim()) return [];
  const parts = policySetTextToParts(cedar);
  if (parts.type === 'failure')
    return parts.errors.map((e) => ({
      file: doc.file,
      line: doc.cedarLine(firstOffset(e)),
      message: `cedar: does not parse: ${e.message}`,
    }));
  if (parts.policy_templates.length > 0)
    return [at(doc, '/spec/cedar', 'cedar: templates are not supported')];
  return undefined;
}

/** Where a compiled policy id came from: a response rule's line, or its place in the Cedar text. */
function compiledLine(doc: PolicyDoc, policyId: string, text: string, offset: number): number | undefined {
  const rules = doc.record.spec.responseRules ?? [];
  const i = rules.findIndex((r) => `${doc.id}/${r.name}` === policyId);
  if (i >= 0) return doc.lineOf(`/spec/responseRules/${i}`);
  const start = doc.record.spec.cedar?.indexOf(text) ?? -1;
  return start < 0 ? doc.lineOf('/spec/cedar') : doc.cedarLine(start + offset);
}

function cedarValidationProblems(doc: PolicyDoc, claims: Map<string, ClaimInfo>): Problem[] {
  const { policies } = compilePolicySet([doc.record], claims);
  const answer = validate({
    schema: cedarSchema(claims),
    policies: { staticPolicies: policies },
    validationSettings: { mode: 'strict' },
  });
  if (answer.type === 'failure') return answer.errors.map((e) => at(doc, '/spec', `cedar: ${e.message}`));
  return answer.validationErrors
    .filter((e) => !OPTIONAL_ACCESS.test(e.error.message))
    .map((e) => ({
      file: doc.file,
      line: compiledLine(doc, e.policyId, policies[e.policyId] ?? '', firstOffset(e.error)),
      message: `${e.policyId}: ${e.error.message}${e.error.help ? ` (${e.error.help})` : ''}`,
    }));
}

function compileProblems(doc: PolicyDoc, claims: Map<string, ClaimInfo>): Problem[] {
  // A rule that does not compile is left out of the set, so the rest is still validated.
  const rules = ruleProblems(doc, claims);
  return [...rules, ...(cedarParseProblems(doc) ?? cedarValidationProblems(doc, claims))];
}

/** Every problem of every document, in file order. */
export function checkPolicyDocs(docs: PolicyDoc[], vocabularies: Vocabulary[]): Problem[] {
  const { claims, problems: clashes } = indexVocabularies(vocabularies);
  const out: Problem[] = clashes.map((message) => ({
    file: docs[0]?.file ?? '-',
    message: `vocabularies: ${message}`,
  }));
  for (const doc of docs) {
    const shape = shapeProblems(doc);
    if (shape.length > 0) {
      out.push(...shape);
      continue;
    }
    out.push(...namingProblems(doc), ...enforcementProblems(doc, docs), ...compileProblems(doc, claims));
  }
  return out;
}
