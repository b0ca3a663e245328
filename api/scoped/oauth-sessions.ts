// Where a pending OAuth connect lives between start and callback (decision
// 276): one Secret per session in the facade's own namespace, named by a hash
// of the state, its record envelope-encrypted with the keyring (the PKCE
// verifier never leaves the server unencrypted), so every replica sees it.
// A callback claims the session by replacing the Secret at the
// resourceVersion it read: of two callbacks with one state only one wins.
// Old records are swept when sessions start.
import type * as k8s from '@kubernetes/client-node';
import { decrypt, encrypt } from '../../base/crypto/envelope.ts';
import { apiStatus } from '../../base/kube.ts';
import type { Principal } from '../auth/principal.ts';
import type { KeyringAccess } from './keyring.ts';
import { SESSION_KEEP_MS, sessionSecretName } from './oauth-flow.ts';

const LABEL = 'platform.io/oauth-session';
const DELETE_AFTER = 'platform.io/delete-after';
const KEY = 'session';

export type SessionStatus = 'pending' | 'exchanging' | 'connected' | 'error';

/** What start was asked: the credential's create body without type or material (or, to reconnect, its id). */
export interface StartBody {
  scope: string;
  scope_id: string;
  service: string;
  sharing_mode?: 'inherit' | 'enforce' | 'isolated';
  destinations?: string[];
  /** Reconnect: the existing OAuth credential (`<namespace>.<name>`) the new tokens replace. */
  credential_id?: string;
}

export interface OAuthSession {
  principal: Pick<Principal, 'subject' | 'method' | 'orgAdmin' | 'workspaceAdminOf' | 'keyId'>;
  request: StartBody;
  verifier: string;
  created_at: number;
  expires_at: number;
  status: SessionStatus;
  credential_id?: string;
  error?: { code: string; message: string };
}

export interface StoredSession {
  session: OAuthSession;
  version: string;
}

export interface SessionStore {
  create(state: string, session: OAuthSession): Promise<void>;
  read(state: string): Promise<StoredSession | undefined>;
  /** Replaces the record if it is still at `version`; false when another write came first. */
  replace(state: string, session: OAuthSession, version: string): Promise<boolean>;
  /** Deletes records past their keep time (best effort). */
  sweep(now: number): Promise<void>;
}

const contextOf = (namespace: string, name: string): string => `${namespace}/${name}/${KEY}`;

interface Where {
  core: k8s.CoreV1Api;
  namespace: string;
  keyring: KeyringAccess;
}

async function secretOf(w: Where, state: string, s: OAuthSession, version?: string): Promise<k8s.V1Secret> {
  const name = sessionSecretName(state);
  const record = encrypt(await w.keyring(), JSON.stringify(s), contextOf(w.namespace, name));
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name,
      namespace: w.namespace,
      labels: { 'app.kubernetes.io/part-of': 'platform', [LABEL]: 'true' },
      annotations: { [DELETE_AFTER]: new Date(s.created_at + SESSION_KEEP_MS).toISOString() },
      ...(version ? { resourceVersion: version } : {}),
    },
    stringData: { [KEY]: record },
  };
}

async function readSession(w: Where, state: string): Promise<StoredSession | undefined> {
  const name = sessionSecretName(state);
  let secret: k8s.V1Secret;
  try {
    secret = await w.core.readNamespacedSecret({ namespace: w.namespace, name });
  } catch (err) {
    if (apiStatus(err) === 404) return undefined;
    throw err;
  }
  const record = Buffer.from(secret.data?.[KEY] ?? '', 'base64').toString('utf8');
  try {
    const plain = decrypt(await w.keyring(), record, contextOf(w.namespace, name)).toString('utf8');
    return { session: JSON.parse(plain) as OAuthSession, version: secret.metadata?.resourceVersion ?? '' };
  } catch {
    return undefined;
  }
}

export function secretSessions(core: k8s.CoreV1Api, namespace: string, keyring: KeyringAccess): SessionStore {
  const w: Where = { core, namespace, keyring };
  return {
    create: async (state, s) => {
      await core.createNamespacedSecret({ namespace, body: await secretOf(w, state, s) });
    },
    read: (state) => readSession(w, state),
    replace: async (state, s, version) => {
      const name = sessionSecretName(state);
      try {
        await core.replaceNamespacedSecret({ namespace, name, body: await secretOf(w, state, s, version) });
        return true;
      } catch (err) {
        if (apiStatus(err) === 409 || apiStatus(err) === 404) return false;
        throw err;
      }
    },
    sweep: async (now) => {
      const list = await core.listNamespacedSecret({ namespace, labelSelector: `${LABEL}=true` });
      const old = list.items.filter((s) => Date.parse(s.metadata?.annotations?.[DELETE_AFTER] ?? '') < now);
      await Promise.all(
        old.map((s) =>
          core.deleteNamespacedSecret({ namespace, name: s.metadata?.name ?? '' }).catch(() => undefined),
        ),
      );
    },
  };
}
