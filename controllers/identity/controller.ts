// The identity controller: every agent that has a SPIFFE ID gets its SVIDs in
// a Secret beside it (svid.ts), signed with the Verifier's current
// trust-domain key, renewed at half their life or when the key rotates, and
// removed when the agent is suspended. The webhook mounts that Secret into the
// platform sidecars only, so the agent container never holds an SVID.
import * as k8s from '@kubernetes/client-node';
import type { Controller, Reconcile, ReconcileResult } from '../../base/controller/controller.ts';
import { readTrustKeys } from '../../base/identity/key-secret.ts';
import { trustDomainOf } from '../../base/identity/spiffe-id.ts';
import type { StoredTrustKey } from '../../base/identity/trust-keys.ts';
import type { Logger } from '../../base/log.ts';
import { DEFAULT_NAME, RESOURCES } from '../../contract/kube.ts';
import type { PlatformAgent } from '../agent/types.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import { issueSvids, signingKeyId } from './issue.ts';
import { svidRenewalAt, svidSecret, svidSecretName, type SvidPolicy } from './svid.ts';

export const IDENTITY_CONTROLLER = 'identity';
/** Looked at again this often while the Verifier has made no trust-domain key yet. */
const NO_KEY_RETRY_MS = 30_000;
const KEYS_CACHE_MS = 30_000;

export interface IdentityOptions {
  /** Where the Verifier keeps the trust-domain keys (its namespace). */
  keyNamespace: string;
  policy: SvidPolicy;
}

/** The trust-domain keys, read at most every 30 s (a rotation shows within that). */
function cachedKeys(core: k8s.CoreV1Api, namespace: string): () => Promise<StoredTrustKey[]> {
  let cached: { at: number; keys: Promise<StoredTrustKey[]> } | undefined;
  return () => {
    if (!cached || Date.now() - cached.at >= KEYS_CACHE_MS) {
      const keys = readTrustKeys(core, { namespace, name: DEFAULT_NAME.trustKeySecret });
      keys.catch(() => (cached = undefined));
      cached = { at: Date.now(), keys };
    }
    return cached.keys;
  };
}

interface IdentityDeps {
  agent: (key: string) => PlatformAgent | undefined;
  secret: (key: string) => k8s.V1Secret | undefined;
  keys: () => Promise<StoredTrustKey[]>;
  core: k8s.CoreV1Api;
  kit: Toolkit;
  policy: SvidPolicy;
  log: Logger;
}

async function removeSvid(
  d: IdentityDeps,
  agent: PlatformAgent,
  current: k8s.V1Secret | undefined,
): Promise<void> {
  if (!current) return;
  const namespace = agent.metadata.namespace ?? '';
  await d.kit.writer.run(
    'Secret',
    'delete',
    () => d.core.deleteNamespacedSecret({ namespace, name: svidSecretName(agent) }),
    [404],
  );
}

async function writeSvid(
  d: IdentityDeps,
  agent: PlatformAgent,
  current: k8s.V1Secret | undefined,
): Promise<ReconcileResult> {
  const spiffeId = agent.status?.spiffeId ?? '';
  const trustDomain = trustDomainOf(spiffeId) ?? '';
  const keys = await d.keys();
  const keyId = signingKeyId(keys, trustDomain);
  if (!keyId) return { requeueAfterMs: NO_KEY_RETRY_MS };
  const dueAt = svidRenewalAt(current, { spiffeId, keyId }, d.policy);
  if (dueAt > Date.now()) return { requeueAfterMs: dueAt - Date.now() };
  const issued = await issueSvids(spiffeId, keys, trustDomain, d.policy);
  if (!issued) return { requeueAfterMs: NO_KEY_RETRY_MS };
  const body = svidSecret(agent, issued.identity, issued.material);
  const namespace = agent.metadata.namespace ?? '';
  await d.kit.writer.createOrPatch({
    kind: 'Secret',
    current,
    desired: body,
    create: () => d.core.createNamespacedSecret({ namespace, body }),
    patch: () => d.core.replaceNamespacedSecret({ namespace, name: svidSecretName(agent), body }),
    upToDate: () => false,
  });
  d.log.info(
    { agent: `${namespace}/${agent.metadata.name}`, keyId, expires: issued.material.expires },
    'SVIDs issued',
  );
  return { requeueAfterMs: (d.policy.ttlSeconds * 1000) / 2 };
}

function identityReconciler(d: IdentityDeps): Reconcile {
  return async (key) => {
    const agent = d.agent(key);
    if (!agent || agent.metadata.deletionTimestamp) return;
    const current = d.secret(`${agent.metadata.namespace}/${svidSecretName(agent)}`);
    if (agent.status?.phase === 'suspended' || !agent.status?.spiffeId) return removeSvid(d, agent, current);
    return writeSvid(d, agent, current);
  };
}

export function createIdentityController(ctx: ControllerContext, o: IdentityOptions): Controller {
  const { agents, secrets } = ctx.caches;
  const core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  const keys = cachedKeys(core, o.keyNamespace);
  return defineController(ctx, {
    name: IDENTITY_CONTROLLER,
    resource: RESOURCES.agent,
    primary: agents,
    reconciler: (kit) =>
      identityReconciler({
        agent: (k) => agents.get(k),
        secret: (k) => secrets.get(k),
        keys,
        core,
        kit,
        policy: o.policy,
        log: ctx.log,
      }),
  });
}
