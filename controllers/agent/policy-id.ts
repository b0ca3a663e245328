// The policy an agent's Gateway evaluates, pure. The Gateway fetches
// `/v1/policies/{id}/effective` from the Verifier, which serves every
// AuditorPolicy under its id `<namespace>.<name>` (org policies come along as
// parents of a workspace policy). Most specific first:
//   1. a workspace-scope policy in the agent's namespace for its workspace
//      (`scopeId` = the PlatformWorkspace's name);
//   2. a workspace-scope policy in the agent's namespace whose `scopeId` is
//      the namespace (what `apply-preset` writes, and the only kind a
//      standalone agent can have);
//   3. an org-scope policy of the workspace's Organization;
//   4. none: the Gateway applies the built-in default (policy/default-policy.ts).
// Ties go to the lowest id, so the answer never depends on list order.
import type { AuditorPolicy } from '../../crds/generated/types.ts';
import { policyRecordOf } from '../../policy/admission.ts';

export interface PolicyChoice {
  /** Undefined: no AuditorPolicy governs the agent. */
  id?: string;
  /** For the condition message: which rule picked it. */
  source: string;
}

function lowestId(candidates: readonly AuditorPolicy[]): string | undefined {
  return candidates
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => policyRecordOf(p).id)
    .sort()[0];
}

export function effectivePolicyId(
  agent: { metadata: { namespace?: string }; spec: { workspace?: string } },
  organization: string | undefined,
  policies: readonly AuditorPolicy[],
): PolicyChoice {
  const namespace = agent.metadata.namespace ?? '';
  const workspace = agent.spec.workspace;
  const local = policies.filter((p) => p.metadata.namespace === namespace && p.spec.scope === 'workspace');
  const rules: [string, AuditorPolicy[]][] = [
    [`workspace ${workspace}`, workspace ? local.filter((p) => p.spec.scopeId === workspace) : []],
    [`namespace ${namespace}`, local.filter((p) => p.spec.scopeId === namespace)],
    [
      `organization ${organization}`,
      organization ? policies.filter((p) => p.spec.scope === 'org' && p.spec.scopeId === organization) : [],
    ],
  ];
  for (const [what, candidates] of rules) {
    const id = lowestId(candidates);
    if (id) return { id, source: `the AuditorPolicy of ${what}` };
  }
  return { source: 'no AuditorPolicy governs the agent: the built-in default' };
}
