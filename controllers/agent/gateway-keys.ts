// Mints and removes the agent's Gateway API key (what and why: `gateway-key.ts`).
// A key is minted once: while the agent's key Secret exists nothing is
// written. Deleting that Secret rotates the key (the old record goes first).
// On deletion of the agent its records go, then the finalizer. The raw key is
// never logged.
import * as k8s from '@kubernetes/client-node';
import { mintKey } from '../../api/auth/api-key-format.ts';
import { apiMessage, orUndefinedOn404 } from '../../base/kube.ts';
import type { Logger } from '../../base/log.ts';
import type { ObjectWriter } from '../../base/controller/writer.ts';
import type { DesiredCondition } from '../../base/controller/conditions.ts';
import type { ResilientInformer } from '../../base/controller/informer.ts';
import {
  addFinalizerPatch,
  gatewayKeyObjects,
  gatewayKeySecretName,
  recordSelector,
  removeFinalizerPatch,
} from './gateway-key.ts';
import { AGENT_RESOURCE, type PlatformAgent } from './types.ts';
import { ANNOTATION } from '../../contract/kube.ts';
import { agentIdOf } from '../../contract/agent-id.ts';

export const CONDITION_GATEWAY_KEY = 'GatewayKeyReady';

const jsonPatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch);

export interface GatewayKeyResult {
  /** The Secret the pod names for PLATFORM_API_KEY. */
  secretName: string;
  condition: DesiredCondition;
  /** Minting failed: try again soon. */
  retry: boolean;
}

export interface GatewayKeyDeps {
  core: k8s.CoreV1Api;
  custom: k8s.CustomObjectsApi;
  secrets: ResilientInformer<k8s.V1Secret>;
  writer: ObjectWriter;
  /** The Verifier's key namespace (PLATFORM_API_NAMESPACE). */
  keyNamespace: string;
  log: Logger;
  clock?: () => Date;
}

export class GatewayKeys {
  constructor(private readonly deps: GatewayKeyDeps) {}

  /**
   * Puts the finalizer on the agent before any key exists; true when it had
   * to (the update event brings the agent back, with the finalizer).
   */
  async claim(agent: PlatformAgent): Promise<boolean> {
    const patch = addFinalizerPatch(agent);
    await this.patchFinalizers(agent, patch);
    return patch !== undefined;
  }

  /** Mints the key unless its Secret exists. Call after `claim`. */
  async ensure(agent: PlatformAgent): Promise<GatewayKeyResult> {
    const secretName = gatewayKeySecretName(agent);
    try {
      if (!(await this.secretExists(agent, secretName))) await this.mint(agent);
      return {
        secretName,
        retry: false,
        condition: {
          type: CONDITION_GATEWAY_KEY,
          status: 'True',
          reason: 'KeyMinted',
          message: `Secret ${secretName} holds the gateway's API key, bound to agent ${agentIdOf(agent)}`,
        },
      };
    } catch (err) {
      return {
        secretName,
        retry: true,
        condition: {
          type: CONDITION_GATEWAY_KEY,
          status: 'False',
          reason: 'KeyMintFailed',
          message: `cannot mint the gateway's API key (key namespace ${this.deps.keyNamespace}): ${apiMessage(err)}`,
        },
      };
    }
  }

  /** The agent is going: its key records, then the finalizer (the key Secret goes by owner reference). */
  async release(agent: PlatformAgent): Promise<void> {
    const patch = removeFinalizerPatch(agent);
    if (!patch) return;
    await this.removeRecords(agent);
    await this.patchFinalizers(agent, patch);
  }

  private async secretExists(agent: PlatformAgent, name: string): Promise<boolean> {
    const namespace = agent.metadata.namespace ?? '';
    const cached = this.deps.secrets.get(`${namespace}/${name}`);
    if (cached?.metadata?.annotations?.[ANNOTATION.apiKeyId]) return true;
    // A cache miss is confirmed before a new key replaces the records of the current one.
    return (await orUndefinedOn404(this.deps.core.readNamespacedSecret({ namespace, name }))) !== undefined;
  }

  private async mint(agent: PlatformAgent): Promise<void> {
    await this.removeRecords(agent);
    const minted = mintKey();
    const now = this.deps.clock?.() ?? new Date();
    const { record, secret } = gatewayKeyObjects(agent, minted, this.deps.keyNamespace, now);
    const { core, writer, keyNamespace } = this.deps;
    await writer.create('Secret', () =>
      core.createNamespacedSecret({ namespace: keyNamespace, body: record }),
    );
    const namespace = agent.metadata.namespace ?? '';
    await writer.create('Secret', () => core.createNamespacedSecret({ namespace, body: secret }));
    this.deps.log.info(
      { agent: agentIdOf(agent), keyId: minted.id, keySecret: `${namespace}/${secret.metadata?.name}` },
      'gateway API key minted',
    );
  }

  private async removeRecords(agent: PlatformAgent): Promise<void> {
    const { core, writer, keyNamespace } = this.deps;
    const list = await core.listNamespacedSecret({
      namespace: keyNamespace,
      labelSelector: recordSelector(agent),
    });
    for (const s of list.items) {
      const name = s.metadata?.name ?? '';
      await writer.delete('Secret', () => core.deleteNamespacedSecret({ namespace: keyNamespace, name }));
    }
  }

  private async patchFinalizers(agent: PlatformAgent, body: object[] | undefined): Promise<void> {
    if (!body) return;
    const namespace = agent.metadata.namespace ?? '';
    const name = agent.metadata.name ?? '';
    // 404: the agent is gone; 422: the test of a removal failed (the next event retries).
    await this.deps.writer.run(
      'PlatformAgent',
      'patch',
      () =>
        this.deps.custom.patchNamespacedCustomObject({ ...AGENT_RESOURCE, namespace, name, body }, jsonPatch),
      [404, 422],
    );
  }
}
