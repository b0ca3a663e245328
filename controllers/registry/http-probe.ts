// The HTTP side of registry health checks: a GET with a timeout carrying the
// registration's auth (decision 129), the body parsed as JSON when it is JSON.
import { registryGet, type RegistryGetError } from '../../base/registry-get.ts';
import type { HealthProbe, ProbeResult } from './health.ts';

const MAX_BODY_BYTES = 65_536;

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const httpHealthProbe: HealthProbe = {
  async get(url, request, timeoutMs): Promise<ProbeResult> {
    try {
      const res = await registryGet(url, request, { timeoutMs, maxBytes: MAX_BODY_BYTES });
      return { kind: 'answer', status: res.status, body: parse(res.body) };
    } catch (err) {
      return { kind: 'failed', error: (err as RegistryGetError).message };
    }
  },
};
