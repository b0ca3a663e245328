// PlatformAgent: one AI agent, its owners and its runtime. Grows with the
// resources issue; the foundation needs owners and the phase.
import { conditionsSchema, type KindDefinition } from '../kit.ts';

export const platformAgent: KindDefinition = {
  kind: 'PlatformAgent',
  plural: 'platformagents',
  singular: 'platformagent',
  shortNames: ['pagent'],
  scope: 'Namespaced',
  scopeReason: 'An agent lives in its workspace namespace with its pod, ServiceAccount and Secrets.',
  spec: {
    type: 'object',
    properties: {
      owners: {
        type: 'array',
        items: {
          type: 'object',
          required: ['subject', 'role'],
          properties: {
            subject: { type: 'string', minLength: 1, maxLength: 256 },
            role: { type: 'string', enum: ['Owner', 'Editor', 'Viewer'] },
          },
        },
      },
      model: {
        type: 'object',
        properties: { id: { type: 'string' } },
      },
    },
  },
  status: {
    type: 'object',
    properties: {
      phase: { type: 'string', enum: ['pending', 'running', 'suspended'] },
      observedGeneration: { type: 'integer', format: 'int64' },
      conditions: conditionsSchema,
    },
  },
  printerColumns: [{ name: 'Phase', type: 'string', jsonPath: '.status.phase' }],
};
