// Credential references of an agent's routing rules, pure: every
// `credentialRef` must name a ScopedCredential in the agent's namespace
// (workspace scope) or the organization's home namespace (org scope). A
// missing one is a condition; nothing is torn down for it.
import type { PlatformAgent } from './types.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';

export const CONDITION_CREDENTIAL_REFS = 'CredentialRefsResolved';

export function credentialRefs(agent: PlatformAgent): string[] {
  const env = agent.spec.environment;
  const rules = [
    ...(env?.credentialRouting ?? []),
    ...(env?.tools ?? []).flatMap((t) => t.credentialRouting ?? []),
  ];
  return [...new Set(rules.map((r) => r.credentialRef).filter((r): r is string => typeof r === 'string'))];
}

/** `exists(namespace, name)` answers from the ScopedCredential cache. */
export function credentialRefsCondition(
  agent: PlatformAgent,
  homeNamespace: string | undefined,
  exists: (namespace: string, name: string) => boolean,
): DesiredCondition {
  const namespaces = [agent.metadata.namespace ?? '', ...(homeNamespace ? [homeNamespace] : [])];
  const missing = credentialRefs(agent).filter((ref) => !namespaces.some((ns) => exists(ns, ref)));
  if (missing.length === 0) {
    return { type: CONDITION_CREDENTIAL_REFS, status: 'True', reason: 'AllFound' };
  }
  return {
    type: CONDITION_CREDENTIAL_REFS,
    status: 'False',
    reason: 'CredentialNotFound',
    message: `credentialRef ${missing.join(', ')} names no ScopedCredential in namespace ${namespaces.join(' or ')}; requests to those destinations get no credential`,
  };
}
