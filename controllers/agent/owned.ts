// The objects an agent owns, brought in line with the pure decisions: its
// ServiceAccount, its OAuth client Secret and its pod. Reads come from the
// informer caches; every write goes through the counting ObjectWriter.
import type * as k8s from '@kubernetes/client-node';
import type { Keyring } from '../../operator/crypto/envelope.ts';
import { apiMessage, apiStatus } from '../../operator/kube.ts';
import { SPEC_HASH_ANNOTATION } from '../common/meta.ts';
import type { ObjectWriter } from '../common/writer.ts';
import type { DesiredCondition } from '../runtime/conditions.ts';
import type { ResilientInformer } from '../runtime/informer.ts';
import { CLIENT_ID_ANNOTATION, oauthClientSecret } from './oauth.ts';
import { desiredPod, desiredServiceAccount, type PodSettings } from './pod.ts';
import { ownedNames, type PlatformAgent } from './types.ts';
import type { PodWiring } from './wiring.ts';

export interface OwnedCaches {
  pods: ResilientInformer<k8s.V1Pod>;
  serviceAccounts: ResilientInformer<k8s.V1ServiceAccount>;
  secrets: ResilientInformer<k8s.V1Secret>;
}

export interface PodObservation {
  podPhase?: string;
  podError?: string;
  podBlocked?: string;
}

export interface CredentialResult {
  clientId?: string;
  condition: DesiredCondition;
}

const key = (agent: PlatformAgent, name: string): string => `${agent.metadata.namespace}/${name}`;

export class AgentObjects {
  constructor(
    private readonly core: k8s.CoreV1Api,
    private readonly caches: OwnedCaches,
    private readonly writer: ObjectWriter,
    private readonly settings: PodSettings,
  ) {}

  async ensureServiceAccount(agent: PlatformAgent): Promise<void> {
    const body = desiredServiceAccount(agent);
    if (this.caches.serviceAccounts.get(key(agent, body.metadata!.name!))) return;
    const namespace = agent.metadata.namespace ?? '';
    await this.writer.create('ServiceAccount', () =>
      this.core.createNamespacedServiceAccount({ namespace, body }),
    );
  }

  /** The OAuth client record: created once, never regenerated while the Secret exists. */
  async ensureOAuthClient(
    agent: PlatformAgent,
    keyring: Keyring | undefined,
    keyringError: string,
  ): Promise<CredentialResult> {
    const type = 'CredentialsReady';
    const name = ownedNames(agent.metadata.name ?? '').secret;
    const existing = this.caches.secrets.get(key(agent, name));
    const existingId = existing?.metadata?.annotations?.[CLIENT_ID_ANNOTATION];
    if (existingId) {
      return {
        clientId: existingId,
        condition: {
          type,
          status: 'True',
          reason: 'OAuthClientRegistered',
          message: `OAuth client ${existingId}`,
        },
      };
    }
    if (!keyring) {
      return {
        condition: {
          type,
          status: 'False',
          reason: 'KeyringUnavailable',
          message: `cannot encrypt the OAuth client secret: ${keyringError}`,
        },
      };
    }
    const body = oauthClientSecret(agent, keyring);
    const namespace = agent.metadata.namespace ?? '';
    await this.writer.create('Secret', () => this.core.createNamespacedSecret({ namespace, body }));
    const clientId = body.metadata!.annotations![CLIENT_ID_ANNOTATION]!;
    return {
      clientId,
      condition: {
        type,
        status: 'True',
        reason: 'OAuthClientRegistered',
        message: `OAuth client ${clientId}`,
      },
    };
  }

  existingPod(agent: PlatformAgent): k8s.V1Pod | undefined {
    return this.caches.pods.get(key(agent, ownedNames(agent.metadata.name ?? '').pod));
  }

  /** Removes the agent's pod (suspension). */
  async removePod(agent: PlatformAgent): Promise<void> {
    const pod = this.existingPod(agent);
    if (!pod || pod.metadata?.deletionTimestamp) return;
    const namespace = agent.metadata.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    await this.writer.delete('Pod', () => this.core.deleteNamespacedPod({ namespace, name }));
  }

  /** Creates the pod, or replaces one built from an older spec; reports what the pod is now. */
  async syncPod(agent: PlatformAgent, chain: readonly string[], wiring?: PodWiring): Promise<PodObservation> {
    const desired = desiredPod(agent, chain, this.settings, wiring);
    const existing = this.existingPod(agent);
    if (!existing) return this.createPod(agent, desired);
    if (upToDate(existing, desired) || existing.metadata?.deletionTimestamp) {
      return { podPhase: existing.status?.phase ?? 'Pending' };
    }
    const namespace = agent.metadata.namespace ?? '';
    const name = existing.metadata?.name ?? '';
    await this.writer.delete('Pod', () => this.core.deleteNamespacedPod({ namespace, name }));
    return {};
  }

  private async createPod(agent: PlatformAgent, body: k8s.V1Pod): Promise<PodObservation> {
    const namespace = agent.metadata.namespace ?? '';
    try {
      const created = await this.writer.create('Pod', () =>
        this.core.createNamespacedPod({ namespace, body }),
      );
      return { podPhase: created?.status?.phase ?? 'Pending' };
    } catch (err) {
      const code = apiStatus(err) ?? 0;
      // Admission refused it (a missing RuntimeClass, a quota, a policy): a condition, not a crash loop.
      if (code >= 400 && code < 500)
        return { podError: `the pod was refused (HTTP ${code}): ${apiMessage(err)}` };
      throw err;
    }
  }
}

function upToDate(existing: k8s.V1Pod, desired: k8s.V1Pod): boolean {
  const hash = (pod: k8s.V1Pod): string | undefined => pod.metadata?.annotations?.[SPEC_HASH_ANNOTATION];
  return hash(existing) === hash(desired);
}
