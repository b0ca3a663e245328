// The identity controller: every agent that has a SPIFFE ID gets its SVIDs in
// a Secret beside it (svid.ts), signed with the Verifier's current
// trust-domain key, renewed at half their life or when the key rotates, and
// removed when the agent is suspended. Each new SVID is tried at the token
// endpoint, and the answer recorded on the Secret is what `CredentialsReady`
// says (decision 138). The webhook mounts that Secret into the
// platform sidecars only, so the agent container never holds an SVID.
import * as k8s from '@kubernetes/client-node';
import type { Controller, Reconcile, ReconcileResult } from '../../base/controller/controller.ts';
import { readTrustKeys } from '../../base/identity/key-secret.ts';
import { trustDomainOf } from '../../base/identity/spiffe-id.ts';
import type { StoredTrustKey } from '../../base/identity/trust-keys.ts';
import type { Logger } from '../../base/log.ts';
import { ANNOTATION, DEFAULT_NAME, RESOURCES } from '../../contract/kube.ts';
import { mergePatch } from '../../base/controller/writer.ts';
import { checkTokenEndpoint } from './token-check.ts';
import type { PlatformAgent } from '../agent/types.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';
import { issueSvids, signingKeyId } from './issue.ts';
import { SVID_FILE, svidRenewalAt, svidSecret, svidSecretName, type SvidPolicy } from './svid.ts';

export const IDENTITY_CONTROLLER = 'identity';
/** Looked at again this often while the Verifier has made no trust-domain key yet. */
const NO_KEY_RETRY_MS = 30_000;
const KEYS_CACHE_MS = 30_000;
/** A failed token check is tried again this often. */
const TOKEN_RECHECK_MS = 30_000;

export interface IdentityOptions {
  /** Where the Verifier keeps the trust-domain keys (its namespace). */
  keyNamespace: string;
  policy: SvidPolicy;
  /** The token endpoint the check asks (the issuer's `/oauth/token` unless set). */
  tokenUrl: string;
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
  tokenUrl: string;
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

/** Asks the token endpoint with `jwt` and records the answer on the Secret; true when a token came. */
async function recordTokenCheck(d: IdentityDeps, agent: PlatformAgent, jwt: string): Promise<boolean> {
  const check = await checkTokenEndpoint(d.tokenUrl, jwt);
  const namespace = agent.metadata.namespace ?? '';
  const annotations = {
    [ANNOTATION.tokenCheck]: check,
    [ANNOTATION.tokenCheckTime]: new Date().toISOString(),
  };
  await d.kit.writer.patch('Secret', () =>
    d.core.patchNamespacedSecret(
      { namespace, name: svidSecretName(agent), body: { metadata: { annotations } } },
      mergePatch,
    ),
  );
  if (check !== 'ok')
    d.log.warn({ agent: `${namespace}/${agent.metadata.name}`, check }, 'no token with the SVID');
  return check === 'ok';
}

/** A failed or missing check is tried again after TOKEN_RECHECK_MS with the SVID the Secret holds. */
function recheckDue(current: k8s.V1Secret | undefined): boolean {
  const a = current?.metadata?.annotations ?? {};
  if (a[ANNOTATION.tokenCheck] === 'ok') return false;
  const last = Date.parse(a[ANNOTATION.tokenCheckTime] ?? '');
  return !Number.isFinite(last) || Date.now() - last >= TOKEN_RECHECK_MS;
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
  if (dueAt > Date.now()) return keepSvid(d, agent, current, dueAt);
  const issued = await issueSvids(spiffeId, keys, trustDomain, d.policy);
  if (!issued) return { requeueAfterMs: NO_KEY_RETRY_MS };
  return storeSvid(d, agent, current, issued);
}

/** The SVIDs are current: only a failed or missing token check is tried again. */
async function keepSvid(
  d: IdentityDeps,
  agent: PlatformAgent,
  current: k8s.V1Secret | undefined,
  dueAt: number,
): Promise<ReconcileResult> {
  const jwt = Buffer.from(current?.data?.[SVID_FILE.jwt] ?? '', 'base64').toString('utf8');
  const ok = !recheckDue(current) || (jwt !== '' && (await recordTokenCheck(d, agent, jwt)));
  return { requeueAfterMs: Math.min(dueAt - Date.now(), ok ? Infinity : TOKEN_RECHECK_MS) };
}

async function storeSvid(
  d: IdentityDeps,
  agent: PlatformAgent,
  current: k8s.V1Secret | undefined,
  issued: NonNullable<Awaited<ReturnType<typeof issueSvids>>>,
): Promise<ReconcileResult> {
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
    {
      agent: `${namespace}/${agent.metadata.name}`,
      keyId: issued.identity.keyId,
      expires: issued.material.expires,
    },
    'SVIDs issued',
  );
  const ok = await recordTokenCheck(d, agent, issued.material.jwt);
  return { requeueAfterMs: ok ? (d.policy.ttlSeconds * 1000) / 2 : TOKEN_RECHECK_MS };
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
        tokenUrl: o.tokenUrl,
        log: ctx.log,
      }),
  });
}
