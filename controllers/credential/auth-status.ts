// Pure: what a ScopedCredential's material shows of its auth status. A
// credential applied with kubectl names a Secret that may not exist yet, so
// "connected" is said only once the Secret holds the key. `expired` and
// `revoked` are verdicts of whoever used the credential (a token refused
// upstream): the presence of material does not undo them.
import type { ScopedCredential } from '../../crds/generated/types.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import { notReady, readyFrom } from '../common/ready.ts';

export type AuthStatus = NonNullable<NonNullable<ScopedCredential['status']>['authStatus']>;

/** What the operator found at the credential's `secretRef`: no Secret, or the Secret's keys. */
export type MaterialFound = { secret: false } | { secret: true; keys: readonly string[] };

export const CONDITION_MATERIAL = 'MaterialReady';

export interface CredentialAuth {
  authStatus: AuthStatus;
  condition: DesiredCondition;
  /** Ready: the material is there and no user of it found it expired or revoked. */
  ready: DesiredCondition;
}

const STICKY: readonly AuthStatus[] = ['expired', 'revoked'];

function materialCondition(cred: ScopedCredential, found: MaterialFound | undefined): DesiredCondition {
  const ref = cred.spec.secretRef;
  if (!ref) {
    return {
      type: CONDITION_MATERIAL,
      status: 'False',
      reason: 'FlowNotRun',
      message: 'an oauth_flow credential is connected by running its OAuth flow',
    };
  }
  if (!found?.secret) {
    return {
      type: CONDITION_MATERIAL,
      status: 'False',
      reason: 'SecretNotFound',
      message: `Secret ${ref.name} does not exist yet: put the material with POST /v1/scoped-credentials/{id}/rotate`,
    };
  }
  if (!found.keys.includes(ref.key)) {
    return {
      type: CONDITION_MATERIAL,
      status: 'False',
      reason: 'KeyNotFound',
      message: `Secret ${ref.name} has no key ${ref.key}`,
    };
  }
  return {
    type: CONDITION_MATERIAL,
    status: 'True',
    reason: 'MaterialPresent',
    message: `Secret ${ref.name}`,
  };
}

const STICKY_READY: Record<string, DesiredCondition> = {
  expired: notReady('Expired', 'a user of the credential found it expired: rotate it'),
  revoked: notReady('Revoked', 'a user of the credential found it revoked: rotate it'),
};

export function credentialAuth(cred: ScopedCredential, found: MaterialFound | undefined): CredentialAuth {
  const condition = materialCondition(cred, found);
  const previous = cred.status?.authStatus;
  if (previous && STICKY.includes(previous))
    return { authStatus: previous, condition, ready: STICKY_READY[previous]! };
  const byReason: Record<string, AuthStatus> = { KeyNotFound: 'error', MaterialPresent: 'connected' };
  return { authStatus: byReason[condition.reason] ?? 'pending', condition, ready: readyFrom(condition) };
}
