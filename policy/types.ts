// The shapes the policy core works on: an AuditorPolicy as stored (its id,
// version and spec), the detection map and the resolved settings handed to
// auditors.
import type { AuditorPolicySpec } from '../crds/generated/types.ts';
import type { SettingValue } from '../auditors/sdk/types.ts';

export type { AuditorPolicySpec } from '../crds/generated/types.ts';

export const ENFORCEMENT_MODES = ['unlocked', 'exact', 'floor', 'ceiling', 'superset'] as const;
export type EnforcementMode = (typeof ENFORCEMENT_MODES)[number];

/** claim name → setting key → `{value, enforcement}`. */
export type Detection = NonNullable<AuditorPolicySpec['detection']>;
export type ResponseRule = NonNullable<AuditorPolicySpec['responseRules']>[number];

/** What auditors receive as `detection_overrides`: claim → setting → value. */
export type ResolvedDetection = Record<string, Record<string, SettingValue>>;

export interface PolicyRecord {
  /** `<namespace>.<name>` of the AuditorPolicy, like agent ids. */
  id: string;
  /** Bumped on every save; the Evidence's `policy_version`. */
  version: string;
  spec: AuditorPolicySpec;
}
