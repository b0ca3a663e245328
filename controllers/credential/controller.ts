// ScopedCredential status: `authStatus`, the MaterialReady condition and Ready from
// the Secret it names (auth-status.ts). The Secret may be one a user made with
// kubectl, outside the operator's label-selected cache, so it is read
// directly; a credential still waiting for its material is looked at again
// soon while new, then every minute, and at once whenever the credential changes.
import * as k8s from '@kubernetes/client-node';
import { API_VERSION, RESOURCES } from '../../contract/kube.ts';
import type { ScopedCredential } from '../../crds/generated/types.ts';
import { orUndefinedOn404 } from '../../base/kube.ts';
import { mergeConditions, type Condition } from '../../base/controller/conditions.ts';
import type { Controller } from '../../base/controller/controller.ts';
import { defineController } from '../common/define.ts';
import { READY } from '../common/ready.ts';
import type { ControllerContext } from '../common/toolkit.ts';
import { credentialAuth, type MaterialFound } from './auth-status.ts';

/**
 * How soon a credential without its material is looked at again: every 2 s in its first two minutes
 * (the API writes the Secret just after the credential it is owned by, and nothing watches Secrets
 * here), then every minute (a Secret a person has yet to make with kubectl).
 */
export function waitingRequeueMs(createdAt: string | undefined, nowMs: number): number {
  const age = createdAt ? nowMs - Date.parse(createdAt) : Infinity;
  return age >= 0 && age < 120_000 ? 2_000 : 60_000;
}

async function materialOf(core: k8s.CoreV1Api, cred: ScopedCredential): Promise<MaterialFound | undefined> {
  const ref = cred.spec.secretRef;
  if (!ref) return undefined;
  const secret = await orUndefinedOn404(
    core.readNamespacedSecret({ namespace: cred.metadata.namespace ?? '', name: ref.name }),
  );
  return secret ? { secret: true, keys: Object.keys(secret.data ?? {}) } : { secret: false };
}

export function createCredentialController(ctx: ControllerContext): Controller {
  const core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  return defineController(ctx, {
    name: 'scopedcredential',
    resource: RESOURCES.credential,
    primary: ctx.caches.credentials,
    reconciler: (kit) => async (key) => {
      const cred = ctx.caches.credentials.get(key);
      if (!cred || cred.metadata.deletionTimestamp) return;
      const { authStatus, condition, ready } = credentialAuth(cred, await materialOf(core, cred));
      const now = new Date();
      const previous = cred.status?.conditions as Condition[] | undefined;
      const conditions = mergeConditions(previous, [condition, ready], now, [condition.type, READY]);
      const subject = { ...cred, apiVersion: API_VERSION, kind: 'ScopedCredential' };
      await kit.statusWriter.write(subject, { ...cred.status, authStatus, conditions });
      if (authStatus === 'connected') return undefined;
      return {
        requeueAfterMs: waitingRequeueMs(
          cred.metadata.creationTimestamp as string | undefined,
          now.getTime(),
        ),
      };
    },
  });
}
