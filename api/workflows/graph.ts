// A Workflow's graph, checked: nodes are agents, edges are delegations
// (`from` delegates to `to`). Pure: the routes call it before any write, so a
// bad graph is a 422 naming every problem and nothing is stored.
import type { PlatformAgent, WorkflowSpec } from '../../crds/generated/types.ts';
import { validateResource } from '../../crds/validators.ts';
import { unprocessable } from '../../base/http-error.ts';
import { API_VERSION } from '../../contract/kube.ts';
import { ownerCount } from '../agents/model.ts';
import { describeIssues } from '../http/validate.ts';

export type WorkflowNode = WorkflowSpec['nodes'][number];
export type WorkflowEdge = NonNullable<WorkflowSpec['edges']>[number];
export interface WorkflowGraph {
  nodes: WorkflowNode[];
  edges?: WorkflowEdge[];
}

/** The CRD's limits, checked here first so the answer names them. */
export const MAX_NODES = 64;
export const MAX_EDGES = 256;

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const v of values) (seen.has(v) ? twice : seen).add(v);
  return [...twice];
}

function sizeProblems(g: WorkflowGraph): string[] {
  const edges = g.edges ?? [];
  const out: string[] = [];
  if (g.nodes.length === 0) out.push('nodes: a workflow needs at least one node');
  if (g.nodes.length > MAX_NODES) out.push(`nodes: ${g.nodes.length} nodes, at most ${MAX_NODES}`);
  if (edges.length > MAX_EDGES) out.push(`edges: ${edges.length} edges, at most ${MAX_EDGES}`);
  return out;
}

function nodeProblems(g: WorkflowGraph): string[] {
  const out = duplicates(g.nodes.map((n) => n.name)).map((n) => `nodes: node "${n}" appears twice`);
  for (const a of duplicates(g.nodes.map((n) => n.agent)))
    out.push(`nodes: agent "${a}" is the agent of two nodes`);
  return out;
}

function edgeProblems(g: WorkflowGraph): string[] {
  const names = new Set(g.nodes.map((n) => n.name));
  const out: string[] = [];
  for (const [i, e] of (g.edges ?? []).entries()) {
    for (const end of [e.from, e.to].filter((x) => !names.has(x)))
      out.push(`edges[${i}]: unknown node "${end}"`);
    if (e.from === e.to) out.push(`edges[${i}]: node "${e.from}" delegates to itself`);
  }
  for (const d of duplicates((g.edges ?? []).map((e) => `${e.from} -> ${e.to}`)))
    out.push(`edges: ${d} appears twice`);
  return out;
}

/** One cycle's nodes in order (first repeated at the end), or undefined for a DAG. */
export function findCycle(g: WorkflowGraph): string[] | undefined {
  const next = new Map<string, string[]>(g.nodes.map((n) => [n.name, []]));
  for (const e of g.edges ?? []) if (e.from !== e.to) next.get(e.from)?.push(e.to);
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (n: string): string[] | undefined => {
    const at = path.indexOf(n);
    if (at >= 0) return [...path.slice(at), n];
    if (done.has(n)) return undefined;
    path.push(n);
    const found = (next.get(n) ?? []).reduce<string[] | undefined>((c, m) => c ?? visit(m), undefined);
    path.pop();
    done.add(n);
    return found;
  };
  return [...next.keys()].reduce<string[] | undefined>((c, n) => c ?? visit(n), undefined);
}

/** The PlatformAgent a node describes (without its Workflow's ownership). */
export function nodeAgent(namespace: string, node: WorkflowNode): PlatformAgent {
  const spec = { ...(node.spec ?? {}) };
  // Deploy runs the agent; stop suspends it: suspension is the workflow's, not the node's.
  delete spec.suspend;
  return {
    apiVersion: API_VERSION,
    kind: 'PlatformAgent',
    metadata: { namespace, name: node.agent },
    spec: spec as PlatformAgent['spec'],
  };
}

function specProblems(namespace: string, g: WorkflowGraph): string[] {
  return g.nodes.flatMap((n) => {
    if (!n.spec) return [`nodes.${n.name}.spec: the agent spec is required`];
    const checked = validateResource(nodeAgent(namespace, n));
    if (!checked.valid) return [describeIssues(`nodes.${n.name}`, checked.issues)];
    if (ownerCount(n.spec.owners as PlatformAgent['spec']['owners']) === 0)
      return [`nodes.${n.name}.spec.owners: needs at least one entry with role Owner`];
    return [];
  });
}

/** Every problem of the graph, in a stable order; [] when it is valid. */
export function graphProblems(namespace: string, g: WorkflowGraph): string[] {
  const sized = sizeProblems(g);
  if (sized.length > 0) return sized;
  const structural = [...nodeProblems(g), ...edgeProblems(g)];
  if (structural.length > 0) return structural;
  const cycle = findCycle(g);
  if (cycle) return [`edges: delegation cycle ${cycle.join(' -> ')}`];
  return specProblems(namespace, g);
}

/** Throws 422 `invalid_graph` naming every problem. */
export function requireValidGraph(namespace: string, g: WorkflowGraph): void {
  const problems = graphProblems(namespace, g);
  if (problems.length > 0) throw unprocessable(problems.join('; '), 'invalid_graph');
}
