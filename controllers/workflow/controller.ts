// The workflow controller: `status.phase` and the `Ready` condition of every
// Workflow follow the agents it deployed (api/workflows/phase.ts, decision
// 125), so `kubectl get workflows` says where each one is. It writes only the
// status; deploy and stop stay the API's. Any event on an agent a Workflow
// owns requeues that Workflow.
import * as k8s from '@kubernetes/client-node';
import { API_VERSION, RESOURCES } from '../../contract/kube.ts';
import type { PlatformAgent, Workflow } from '../../crds/generated/types.ts';
import { orUndefinedOn404 } from '../../base/kube.ts';
import type { Controller, Reconcile } from '../../base/controller/controller.ts';
import { phaseStatus } from '../../api/workflows/phase.ts';
import { defineController } from '../common/define.ts';
import type { ControllerContext, Toolkit } from '../common/toolkit.ts';

export const WORKFLOW_CONTROLLER = 'workflow';

/** The keys of the Workflows an agent belongs to (its Workflow ownerReferences). */
export const workflowKeysOf = (agent: k8s.KubernetesObject): string[] =>
  (agent.metadata?.ownerReferences ?? [])
    .filter((r) => r.kind === 'Workflow' && r.apiVersion === API_VERSION)
    .map((r) => `${agent.metadata?.namespace}/${r.name}`);

type AgentReader = (namespace: string, name: string) => Promise<PlatformAgent | undefined>;

/**
 * Each node's agent from the cache; one the cache lacks is read from the
 * apiserver, so an agent deploy has just created is never called missing.
 */
async function nodeAgents(
  wf: Workflow,
  cached: (key: string) => PlatformAgent | undefined,
  read: AgentReader,
) {
  const ns = wf.metadata.namespace ?? '';
  const found = new Map<string, PlatformAgent | undefined>();
  for (const { agent } of wf.spec.nodes)
    found.set(agent, cached(`${ns}/${agent}`) ?? (wf.spec.deployed ? await read(ns, agent) : undefined));
  return (name: string) => found.get(name);
}

interface WorkflowDeps {
  workflow: (key: string) => Workflow | undefined;
  agent: (key: string) => PlatformAgent | undefined;
  read: AgentReader;
  kit: Toolkit;
}

function workflowReconciler(d: WorkflowDeps): Reconcile {
  return async (key) => {
    const wf = d.workflow(key);
    if (!wf || wf.metadata.deletionTimestamp) return;
    const owned = phaseStatus(wf, await nodeAgents(wf, d.agent, d.read), new Date());
    const subject = { ...wf, apiVersion: API_VERSION, kind: 'Workflow' };
    await d.kit.statusWriter.write(subject, { ...wf.status, ...owned });
  };
}

export function createWorkflowController(ctx: ControllerContext): Controller {
  const { workflows, agents } = ctx.caches;
  const api = ctx.kc.makeApiClient(k8s.CustomObjectsApi);
  const read: AgentReader = (namespace, name) =>
    orUndefinedOn404(
      api.getNamespacedCustomObject({ ...RESOURCES.agent, namespace, name }) as Promise<PlatformAgent>,
    );
  return defineController(ctx, {
    name: WORKFLOW_CONTROLLER,
    resource: RESOURCES.workflow,
    primary: workflows,
    watches: [{ informer: agents, mapToKeys: workflowKeysOf }],
    reconciler: (kit) =>
      workflowReconciler({ workflow: (k) => workflows.get(k), agent: (k) => agents.get(k), read, kit }),
  });
}
