// The standard auditor variables every catalog entry lists (spec: Limits).
import type { AuditorCatalogEntry } from '../sdk/types.ts';

export function standardEnvVariables(): AuditorCatalogEntry['envVariables'] {
  return [
    { name: 'PLATFORM_GATEWAY_URL', description: 'Gateway the auditor registers with', required: true },
    { name: 'TEE_PROVIDER', description: 'COCO or MOCK', required: true },
    { name: 'MODEL_ID', description: 'Model guarded when a request names none' },
    { name: 'HTTP_TIMEOUT', description: 'Per-request deadline in seconds', default: '30' },
    { name: 'PORT', description: 'Listen port', default: '8080' },
    { name: 'PLATFORM_AUDITOR_ID', description: 'Id reported and registered' },
  ];
}
