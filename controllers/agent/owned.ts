// The objects an agent owns, brought in line with the pure decisions: its
// ServiceAccount, its OAuth client Secret, its pod (create and delete; when
// to do which is `pod-sync.ts`) and its namespace's webhook label. Reads come
// from the informer caches; every write goes through the counting ObjectWriter.
import type * as k8s from '@kubernetes/client-node';
import type { Keyring } from '../../base/crypto/envelope.ts';
import { credentialsCondition } from '../identity/svid.ts';
import { apiMessage, apiStatus } from '../../base/kube.ts';
import type { ObjectWriter } from '../../base/controller/writer.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import { createFailure, type PodProblem } from './injection.ts';
import { oauthClientSecret } from './oauth.ts';
import { desiredPod, desiredServiceAccount, type PodSettings } from './pod.ts';
import type { PodWiring } from './wiring.ts';
import { ownedNames, type PlatformAgent } from './types.ts';
import { ANNOTATION } from '../../contract/kube.ts';
import { ensureNamespaceEnabled, type NamespaceLabelResult } from '../common/namespace.ts';

export interface OwnedCaches {
  pods: ResilientInformer<k8s.V1Pod>;
  serviceAccounts: ResilientInformer<k8s.V1ServiceAccount>;
  secrets: ResilientInformer<k8s.V1Secret>;
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
    const existingId = existing?.metadata?.annotations?.[ANNOTATION.oauthClientId];
    // Registered is not enough: ready means the client obtained a token with its SVID (decision 138).
    const svid = this.caches.secrets.get(key(agent, ownedNames(agent.metadata.name ?? '').svid));
    if (existingId) {
      return { clientId: existingId, condition: credentialsCondition(existingId, svid) };
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
    const clientId = body.metadata!.annotations![ANNOTATION.oauthClientId]!;
    return { clientId, condition: credentialsCondition(clientId, svid) };
  }

  existingPod(agent: PlatformAgent): k8s.V1Pod | undefined {
    return this.caches.pods.get(key(agent, ownedNames(agent.metadata.name ?? '').pod));
  }

  desiredPod(agent: PlatformAgent, chain: readonly string[], wiring?: PodWiring): k8s.V1Pod {
    return desiredPod(agent, chain, this.settings, wiring);
  }

  /** Removes the agent's pod (suspension). */
  async removePod(agent: PlatformAgent): Promise<void> {
    const pod = this.existingPod(agent);
    if (!pod || pod.metadata?.deletionTimestamp) return;
    await this.deletePod(pod);
  }

  async deletePod(pod: k8s.V1Pod): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    await this.writer.delete('Pod', () => this.core.deleteNamespacedPod({ namespace, name }));
  }

  /**
   * Creates the pod. A refusal (admission, a missing RuntimeClass, a quota, an
   * unreachable webhook) is a result for the conditions, not a crash loop;
   * other failures (network, apiserver overload) throw and are retried.
   */
  async createPod(agent: PlatformAgent, body: k8s.V1Pod): Promise<CreateResult> {
    const namespace = agent.metadata.namespace ?? '';
    try {
      const pod = await this.writer.create('Pod', () => this.core.createNamespacedPod({ namespace, body }));
      return { pod };
    } catch (err) {
      const code = apiStatus(err);
      const message = apiMessage(err);
      const refused = code !== undefined && code >= 400 && code < 500;
      if (refused || /failed calling webhook/i.test(message))
        return { problem: createFailure(code, message) };
      throw err;
    }
  }

  /**
   * Makes sure the webhook selects the agent's namespace (label
   * `platform.computing/enabled: 'true'`) before a pod is created in it.
   * `labelled`: it had to add the label now; `error`: it could not.
   */
  async ensureNamespaceEnabled(agent: PlatformAgent): Promise<NamespaceLabelResult> {
    return ensureNamespaceEnabled(this.core, this.writer, agent.metadata.namespace ?? '');
  }
}

export type CreateResult =
  { pod?: k8s.V1Pod; problem?: undefined } | { pod?: undefined; problem: PodProblem };

/** Whether `existing` was built from the same desired pod (spec hash). */
export function upToDate(existing: k8s.V1Pod, desired: k8s.V1Pod): boolean {
  const hash = (pod: k8s.V1Pod): string | undefined => pod.metadata?.annotations?.[ANNOTATION.specHash];
  return hash(existing) === hash(desired);
}
