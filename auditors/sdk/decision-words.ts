// Auditors observe; they never decide (spec: Auditor contract). This finds
// decision vocabulary in anything an auditor is about to send: a key that names
// a decision (`decision`, `verdict`, `blocked`, …) or a string value
// that is exactly a decision word (`deny`, `blocked`, …). Shared by the SDK
// (which refuses to send such a response) and the conformance suite.

export const DECISION_WORDS: ReadonlySet<string> = new Set([
  'allow',
  'allowed',
  'deny',
  'denied',
  'block',
  'blocked',
  'reject',
  'rejected',
  'permit',
  'forbid',
]);

export const DECISION_KEYS: ReadonlySet<string> = new Set([
  'decision',
  'decisions',
  'verdict',
  'allow',
  'allowed',
  'deny',
  'denied',
  'block',
  'blocked',
]);

/** Paths (`claims[0].value`) where decision vocabulary occurs; empty when none. Iterative: safe on deep values. */
export function findDecisionWords(value: unknown, root = '$'): string[] {
  const found: string[] = [];
  const stack: { path: string; value: unknown }[] = [{ path: root, value }];
  while (stack.length > 0) {
    const { path, value: v } = stack.pop() as { path: string; value: unknown };
    if (typeof v === 'string') {
      if (DECISION_WORDS.has(v.trim().toLowerCase())) found.push(`${path} = ${JSON.stringify(v)}`);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ path: `${path}[${i}]`, value: item }));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (DECISION_KEYS.has(k.toLowerCase())) found.push(`${path}.${k} (decision key)`);
        stack.push({ path: `${path}.${k}`, value: item });
      }
    }
  }
  return found;
}

/**
 * Decision vocabulary in a claim, leaving out `provenance`: it records the
 * settings the claim was produced with (policy input, not an auditor's
 * output), and a setting's value is not the auditor's to choose.
 */
export function findDecisionWordsInClaim(claim: unknown, root = '$'): string[] {
  if (claim === null || typeof claim !== 'object' || Array.isArray(claim))
    return findDecisionWords(claim, root);
  const { provenance: _provenance, ...rest } = claim as Record<string, unknown>;
  return findDecisionWords(rest, root);
}

/** Decision vocabulary anywhere in a `/claims` or `/batch` response body, claims' provenance excepted. */
export function findDecisionWordsInResponse(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return findDecisionWords(body);
  const { claims, results, ...rest } = body as Record<string, unknown>;
  const found = findDecisionWords(rest);
  if (Array.isArray(claims))
    claims.forEach((c, i) => found.push(...findDecisionWordsInClaim(c, `$.claims[${i}]`)));
  if (Array.isArray(results)) results.forEach((r) => found.push(...findDecisionWordsInResponse(r)));
  return found;
}
