// Workflow: a graph of agents that is deployed and stopped as one; every edge
// joins two nodes of the graph.
import { conditionsSchema, type KindDefinition } from '../kit.ts';
import { WORKFLOW_PHASES } from '../schema/enums.ts';
import { arr, baseStatus, bool, freeForm, listMap, obj, oneOf, str, text } from '../schema/parts.ts';
import { PLURAL } from '../../contract/kube.ts';

const nodeName = () => str({ maxLength: 63, minLength: 1 });

export const workflow: KindDefinition = {
  kind: 'Workflow',
  plural: PLURAL.workflow,
  singular: 'workflow',
  shortNames: ['pwf'],
  scope: 'Namespaced',
  scopeReason: 'Its nodes are agents of one workspace namespace; the composite passport is theirs.',
  spec: obj(
    {
      description: text({ maxLength: 4096 }),
      deployed: bool({ description: 'Set by deploy, cleared by stop.', default: false }),
      nodes: listMap(
        obj(
          {
            name: nodeName(),
            agent: str({
              maxLength: 253,
              minLength: 1,
              description: 'Name of the PlatformAgent deploy creates.',
            }),
            role: str({ maxLength: 253 }),
            spec: freeForm(),
          },
          ['name', 'agent'],
        ),
        'name',
        64,
      ),
      edges: arr(
        obj({ from: nodeName(), to: nodeName(), condition: text({ maxLength: 1024 }) }, ['from', 'to']),
        256,
      ),
    },
    ['nodes'],
    {
      'x-kubernetes-validations': [
        {
          rule: '!has(self.edges) || self.edges.all(e, self.nodes.exists(n, n.name == e.from) && self.nodes.exists(n, n.name == e.to))',
          message: 'every edge joins two nodes of the workflow',
        },
        {
          rule: '!has(self.edges) || self.edges.all(e, e.from != e.to)',
          message: 'an edge joins two different nodes',
        },
      ],
    },
  ),
  status: baseStatus(conditionsSchema, {
    phase: oneOf(WORKFLOW_PHASES),
    agents: listMap(
      obj({ node: nodeName(), agentId: str({ maxLength: 317, minLength: 1 }) }, ['node', 'agentId']),
      'node',
      64,
    ),
  }),
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Deployed', type: 'boolean', jsonPath: '.spec.deployed' },
  ],
};
