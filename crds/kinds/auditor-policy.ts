// AuditorPolicy: detection overrides (claim → setting → value, each with an
// enforcement mode) and the Cedar response rules, at org or workspace tier.
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import { ENFORCEMENT_MODES, POLICY_DECISIONS, PRESET_TIERS } from '../schema/enums.ts';
import { anyValue, baseStatus, id, listMap, mapOf, obj, oneOf, str, text, unit } from '../schema/parts.ts';
import { cascadeScope } from './scoped.ts';
import { PLURAL } from '../../contract/kube.ts';

const CLAIM_NAME = '^[a-z][a-z0-9_]*([.][a-z][a-z0-9_]*)*$';
const SETTING_KEY = '^[a-z][a-z0-9_]*$';

// `value` is untyped (number, boolean, string or list), which CEL cannot read;
// the mode-versus-type check (floor/ceiling numeric, superset list) is the
// Verifier's when a policy is saved (422).
const override = obj({ value: anyValue(), enforcement: oneOf(ENFORCEMENT_MODES, 'unlocked') }, ['value']);

const detection = mapOf(
  mapOf(override, 32, {
    'x-kubernetes-validations': [
      {
        rule: `self.all(k, k.matches('${SETTING_KEY}'))`,
        message: 'setting keys are snake_case vocabulary keys',
      },
    ],
  }),
  64,
  {
    'x-kubernetes-validations': [
      {
        rule: `self.all(k, k.matches('${CLAIM_NAME}'))`,
        message: 'claim names are snake_case, dotted groups allowed',
      },
    ],
  },
);

const responseRule = obj(
  {
    name: str({ maxLength: 63, minLength: 1 }),
    claim: str({ maxLength: 253, pattern: CLAIM_NAME }),
    threshold: unit({ description: 'Score at or above which the rule matches (0.0–1.0).' }),
    minConfidence: unit({ description: 'Claims below this confidence are ignored (0.0–1.0).' }),
    decision: oneOf(POLICY_DECISIONS),
  },
  ['name', 'claim', 'decision'],
);

export const auditorPolicy: KindDefinition = {
  kind: 'AuditorPolicy',
  plural: PLURAL.policy,
  singular: 'auditorpolicy',
  shortNames: ['apol'],
  scope: 'Namespaced',
  scopeReason:
    'Workspace-tier policies live in the workspace namespace and org-tier ones in the Organization home namespace, so who may write a tier follows namespace RBAC.',
  spec: obj(
    {
      ...cascadeScope(),
      description: text({ maxLength: 4096 }),
      version: str({ maxLength: 63 }),
      preset: obj({ auditor: id(), tier: oneOf(PRESET_TIERS) }, ['auditor', 'tier']),
      detection,
      cedar: text({ description: 'Cedar response rules (permit/forbid over claims); deny overrides.' }),
      responseRules: listMap(responseRule, 'name', 64),
    },
    ['scope', 'scopeId'],
  ),
  status: baseStatus(conditionsSchema, { appliedVersion: str({ maxLength: 63 }) }),
  printerColumns: [
    { name: 'Scope', type: 'string', jsonPath: '.spec.scope' },
    { name: 'Scope ID', type: 'string', jsonPath: '.spec.scopeId' },
    { name: 'Version', type: 'string', jsonPath: '.spec.version' },
  ],
};
