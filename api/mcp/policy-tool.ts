// `auditor_policy` (SPEC "Auditor and model registry, settings"): detection
// overrides, i.e. AuditorPolicies, through the same routes as REST
// (api/routes/policies.ts): each operation is one route, with its action,
// namespace checks, enforcement checks (422) and audit entry.
import { POLICY_ID } from '../../policy/service.ts';
import { validateBody } from '../http/validate.ts';
import type { Method } from '../routes/route.ts';
import { callRoute, type CallerContext } from './call-route.ts';
import type { McpTool } from './tool.ts';

const OPERATIONS = {
  list: { method: 'GET', path: '/v1/policies', id: false, spec: false },
  get: { method: 'GET', path: '/v1/policies/{id}', id: true, spec: false },
  effective: { method: 'GET', path: '/v1/policies/{id}/effective', id: true, spec: false },
  create: { method: 'POST', path: '/v1/policies', id: true, spec: true },
  update: { method: 'PUT', path: '/v1/policies/{id}', id: true, spec: true },
  delete: { method: 'DELETE', path: '/v1/policies/{id}', id: true, spec: false },
} as const satisfies Record<string, { method: Method; path: string; id: boolean; spec: boolean }>;
type Operation = keyof typeof OPERATIONS;

interface PolicyArgs {
  operation: Operation;
  id?: string;
  spec?: Record<string, unknown>;
}

const INPUT = {
  type: 'object',
  required: ['operation'],
  additionalProperties: false,
  properties: {
    operation: { enum: Object.keys(OPERATIONS), description: 'what to do' },
    id: {
      type: 'string',
      maxLength: 317,
      pattern: POLICY_ID.source,
      description: 'policy id `<namespace>.<name>` (all operations but list)',
    },
    spec: { type: 'object', description: 'AuditorPolicy spec (create, update)' },
  },
  allOf: [
    {
      if: { properties: { operation: { enum: ['get', 'effective', 'create', 'update', 'delete'] } } },
      then: { required: ['id'] },
    },
    { if: { properties: { operation: { enum: ['create', 'update'] } } }, then: { required: ['spec'] } },
  ],
} as const;

function bodyOf(args: PolicyArgs): unknown {
  if (!OPERATIONS[args.operation].spec) return undefined;
  return args.operation === 'create' ? { id: args.id, spec: args.spec } : { spec: args.spec };
}

async function run(raw: unknown, who: CallerContext): Promise<unknown> {
  const args = validateBody<PolicyArgs>(INPUT, raw ?? {}, 'arguments');
  const op = OPERATIONS[args.operation];
  const params: Record<string, string> = op.path.includes('{id}') ? { id: args.id ?? '' } : {};
  const out = await callRoute({ method: op.method, path: op.path, params, body: bodyOf(args) }, who);
  return args.operation === 'delete' ? { deleted: args.id } : out;
}

export const AUDITOR_POLICY_TOOL: McpTool = {
  name: 'auditor_policy',
  description:
    'Detection overrides (AuditorPolicies): list, get, effective chain, create, update, delete. Same permissions as /v1/policies.',
  inputSchema: INPUT as unknown as McpTool['inputSchema'],
  run,
};
