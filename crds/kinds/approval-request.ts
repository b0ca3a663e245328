// ApprovalRequest: a high-risk action (write, merge, send, delete, or one the
// agent's Access Manifest names under actions.approvalRequired) waiting for
// an Owner. Once approved or denied the decision does not change.
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import { APPROVAL_PHASES } from '../schema/enums.ts';
import { ID_PATTERN, baseStatus, freeForm, obj, oneOf, str, stringSet, text, time } from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

const status = baseStatus(conditionsSchema, {
  phase: oneOf(APPROVAL_PHASES),
  decidedBy: str({ maxLength: 256 }),
  decidedTime: time(),
  reason: text({ maxLength: 4096 }),
});
status['x-kubernetes-validations'] = [
  {
    rule: "!has(self.phase) || !(self.phase in ['approved', 'denied']) || has(self.decidedBy)",
    message: 'an approved or denied request names who decided',
  },
  {
    rule: "!has(oldSelf.phase) || !(oldSelf.phase in ['approved', 'denied']) || (has(self.phase) && self.phase == oldSelf.phase)",
    message: 'a decision is final',
  },
];

export const approvalRequest: KindDefinition = {
  kind: 'ApprovalRequest',
  plural: PLURAL.approval,
  singular: 'approvalrequest',
  shortNames: ['papproval'],
  scope: 'Namespaced',
  scopeReason: 'It belongs to one agent and lives beside it; its approvers are that agent’s Owners.',
  spec: obj(
    {
      agent: str({ maxLength: 253, minLength: 1 }),
      action: {
        ...str({ minLength: 1, maxLength: 63, pattern: ID_PATTERN }),
        description: 'write, merge, send, delete, or an action the Access Manifest names (decision 153).',
      },
      target: str({ maxLength: 2048, minLength: 1 }),
      description: text({ maxLength: 4096 }),
      onBehalfOf: str({ maxLength: 256 }),
      approvers: {
        ...stringSet(str({ minLength: 1, maxLength: 256 }), 64),
        description: 'Who may decide: the agent’s Owners when it was requested, without the requester.',
      },
      expiresAt: time(),
      details: freeForm(),
    },
    ['agent', 'action', 'target'],
  ),
  status,
  printerColumns: [
    { name: 'Agent', type: 'string', jsonPath: '.spec.agent' },
    { name: 'Action', type: 'string', jsonPath: '.spec.action' },
    { name: 'Target', type: 'string', jsonPath: '.spec.target' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
  ],
};
