// Where the Gateway's policy chain comes from: the Verifier's
// `/v1/policies/{id}/effective` (refreshed periodically; the last good copy
// is kept when a refresh fails) or a local JSON file. No policy means every
// decision is a `PolicyNotFound` deny.
import { readFileSync } from 'node:fs';
import type { PolicyRecord } from '../policy/types.ts';
import { callJson } from './http-client.ts';

export interface EffectivePolicy {
  policy_id: string;
  policy_version: string;
  chain: PolicyRecord[];
}

export interface PolicySource {
  current(): EffectivePolicy | undefined;
  /** Why the last load failed ('' when it did not). */
  problem(): string;
  refresh(): Promise<void>;
}

function parse(raw: string): EffectivePolicy {
  const p = JSON.parse(raw) as EffectivePolicy;
  if (!p || typeof p.policy_id !== 'string' || !Array.isArray(p.chain))
    throw new Error('expected {policy_id, policy_version, chain}');
  return { ...p, policy_version: String(p.policy_version ?? '') };
}

export function filePolicySource(path: string): PolicySource {
  let current: EffectivePolicy | undefined;
  let problem = '';
  const refresh = (): Promise<void> => {
    try {
      current = parse(readFileSync(path, 'utf8'));
      problem = '';
    } catch (err) {
      problem = `policy file ${path}: ${(err as Error).message}`;
    }
    return Promise.resolve();
  };
  return { current: () => current, problem: () => problem, refresh };
}

export function verifierPolicySource(
  verifierUrl: string,
  policyId: string,
  apiKey: string | undefined,
): PolicySource {
  let current: EffectivePolicy | undefined;
  let problem = 'not loaded yet';
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const refresh = async (): Promise<void> => {
    try {
      const res = await callJson(`${verifierUrl}/v1/policies/${encodeURIComponent(policyId)}/effective`, {
        headers,
        timeoutMs: 5000,
      });
      if (res.status === 404) {
        current = undefined;
        problem = `PolicyNotFound: ${policyId}`;
        return;
      }
      if (res.status !== 200) throw new Error(`Verifier answered ${res.status}`);
      current = parse(res.body.toString('utf8'));
      problem = '';
    } catch (err) {
      problem = `policy ${policyId}: ${(err as Error).message}`;
    }
  };
  return { current: () => current, problem: () => problem, refresh };
}

export function noPolicySource(): PolicySource {
  return {
    current: () => undefined,
    problem: () => 'PLATFORM_POLICY_ID is not set',
    refresh: () => Promise.resolve(),
  };
}
