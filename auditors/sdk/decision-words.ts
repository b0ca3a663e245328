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

interface Node {
  path: string;
  value: unknown;
}

/** Records one node's decision word or decision keys in `found`; returns the nodes beneath it. */
function inspectNode({ path, value }: Node, found: string[]): Node[] {
  if (typeof value === 'string') {
    if (DECISION_WORDS.has(value.trim().toLowerCase())) found.push(`${path} = ${JSON.stringify(value)}`);
    return [];
  }
  if (Array.isArray(value)) return value.map((item, i) => ({ path: `${path}[${i}]`, value: item }));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).map(([k, item]) => {
    if (DECISION_KEYS.has(k.toLowerCase())) found.push(`${path}.${k} (decision key)`);
    return { path: `${path}.${k}`, value: item };
  });
}

/** Paths (`claims[0].value`) where decision vocabulary occurs; empty when none. Iterative: safe on deep values. */
export function findDecisionWords(value: unknown, root = '$'): string[] {
  const found: string[] = [];
  const stack: Node[] = [{ path: root, value }];
  while (stack.length > 0) {
    for (const child of inspectNode(stack.pop() as Node, found)) stack.push(child);
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
