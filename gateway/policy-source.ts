// Where the Gateway's policy chain comes from: the Verifier's
// `/v1/policies/{id}/effective` (refreshed periodically; the last good copy
// is kept when a refresh fails), a local JSON file, or, when no policy id is
// set (no AuditorPolicy governs the agent), the built-in default over the
// chain's vocabularies. No policy means every decision is a `PolicyNotFound` deny.
import { readFileSync } from 'node:fs';
import type { Vocabulary } from '../auditors/sdk/types.ts';
import { indexVocabularies } from '../policy/cedar-schema.ts';
import { defaultPolicy } from '../policy/default-policy.ts';
import type { PolicyRecord } from '../policy/types.ts';
import { callJson } from '../base/http-client.ts';

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

/**
 * The built-in default policy (`policy/default-policy.ts`) narrowed to the
 * chain's claims. Until every auditor of the chain has served its vocabulary
 * there is no policy (fail closed): a rule left out for a missing vocabulary
 * would let that auditor's detections through.
 */
export function defaultPolicySource(
  auditors: () => readonly { id: string; vocabulary?: Vocabulary }[],
): PolicySource {
  let cached: { key: string; policy: EffectivePolicy } | undefined;
  const pending = (): string[] =>
    auditors()
      .filter((a) => !a.vocabulary)
      .map((a) => a.id);
  const current = (): EffectivePolicy | undefined => {
    if (pending().length > 0) return undefined;
    const vocabularies = auditors().map((a) => a.vocabulary!);
    const key = vocabularies.map((v) => `${v.auditor_id}@${v.version}`).join(',');
    if (cached?.key !== key) {
      const record = defaultPolicy(indexVocabularies(vocabularies).claims);
      cached = { key, policy: { policy_id: record.id, policy_version: record.version, chain: [record] } };
    }
    return cached.policy;
  };
  const problem = (): string => {
    const waiting = pending();
    return waiting.length ? `default policy waits for the vocabulary of ${waiting.join(', ')}` : '';
  };
  return { current, problem, refresh: () => Promise.resolve() };
}
