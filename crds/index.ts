// Every kind the platform defines. The generator, the validators and the
// installer read this list.
import type { KindDefinition } from './kit.ts';
import { agentInstalledApp, appCatalogEntry } from './kinds/app-catalog.ts';
import { approvalRequest } from './kinds/approval-request.ts';
import { auditorPolicy } from './kinds/auditor-policy.ts';
import { consentRequest, delegationGrant } from './kinds/delegation.ts';
import { organization } from './kinds/organization.ts';
import { platformAgent } from './kinds/platform-agent.ts';
import { platformEnvironment } from './kinds/platform-environment.ts';
import { platformWorkspace } from './kinds/platform-workspace.ts';
import { auditorRegistration, modelRegistration } from './kinds/registrations.ts';
import { scopedCredential, scopedToolInstall } from './kinds/scoped.ts';
import { workflow } from './kinds/workflow.ts';

export const ALL_KINDS: readonly KindDefinition[] = [
  platformWorkspace,
  platformAgent,
  platformEnvironment,
  organization,
  auditorPolicy,
  scopedCredential,
  scopedToolInstall,
  delegationGrant,
  consentRequest,
  approvalRequest,
  auditorRegistration,
  modelRegistration,
  appCatalogEntry,
  agentInstalledApp,
  workflow,
];

export function kindDefinition(kind: string): KindDefinition | undefined {
  return ALL_KINDS.find((k) => k.kind === kind);
}
