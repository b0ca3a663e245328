// Who may fetch an agent's secrets for its credential proxy, and which
// assertion audiences its SVID may carry (issue 19, contract C), pure. Only
// a Gateway key bound to this very agent: a workspace-wide key serves many
// agents and a person never needs the material (decision 166).
import { EnvelopeError, decrypt, type Keyring } from '../../base/crypto/envelope.ts';
import { conflict, forbidden } from '../../base/http-error.ts';
import type { Principal } from '../auth/principal.ts';
import { tokenEndpointOf } from '../oauth/metadata.ts';
import type { BundleRule } from './bundle.ts';

/** 403 unless the caller is a Gateway key whose agents include `agentId`. */
export function assertAgentBoundKey(principal: Principal, agentId: string): void {
  if (principal.gateway && (principal.gatewayAgents ?? []).includes(agentId)) return;
  throw forbidden(`only a Gateway key bound to agent ${agentId} may fetch its credentials and identity`);
}

/**
 * 409 for a suspended agent (on request, or with no Owner left): its policy
 * already refuses every call, and its secrets and identity stay with the
 * Verifier until an Owner brings it back.
 */
export function assertNotSuspended(agent: {
  spec: { suspend?: boolean; owners?: readonly { role: string }[] };
}): void {
  const noOwner = !(agent.spec.owners ?? []).some((o) => o.role === 'Owner');
  if (agent.spec.suspend === true || noOwner)
    throw conflict(
      noOwner
        ? 'the agent has no Owner and is suspended: no credential or identity is handed out'
        : 'the agent is suspended: no credential or identity is handed out',
      'agent_suspended',
    );
}

/** The platform's issuer or token endpoint, or a token endpoint or audience of one of the agent's client_credentials rules. */
export function audiencePermitted(
  audience: string,
  platformIssuer: string,
  rules: readonly BundleRule[],
): boolean {
  const permitted = new Set([platformIssuer, tokenEndpointOf(platformIssuer)]);
  for (const r of rules) {
    if (r.injection_method !== 'client_credentials') continue;
    if (r.token_endpoint) permitted.add(r.token_endpoint);
    if (r.audience) permitted.add(r.audience);
  }
  return permitted.has(audience);
}

/**
 * The material as stored: an envelope record the API wrote is decrypted
 * (bound to where it lives); a Secret written by hand holds it in the clear.
 */
export function openMaterial(keyring: Keyring, stored: string, context: string): string {
  if (!stored.startsWith('v1.')) return stored;
  try {
    return decrypt(keyring, stored, context).toString('utf8');
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    throw conflict(
      'the credential material cannot be decrypted with the current keyring',
      'credential_unreadable',
    );
  }
}
