// The console's subagent tree (`/console/subagents`): the agent and its
// subagents with their status and current task. Choosing a subagent filters
// the log to it (the stream's and event list's `subagent=`) and shows its
// details; choosing the agent shows everything again.
import { Alert } from '../components.tsx';

export interface TreeNode {
  name: string;
  kind: 'agent' | 'subagent';
  parent: string | null;
  declared: boolean;
  description: string | null;
  status: string;
  current_task: string | null;
  last_event_at: string | null;
  usage: { model_calls: number; tool_calls: number; errors: number; approvals: number };
  pod?: string | null;
  resources: {
    cpu_millicores: number | null;
    memory_bytes: number | null;
    reason?: string | null;
  } | null;
}

export interface Tree {
  agent_id: string;
  nodes: TreeNode[];
}

const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : 'never');

function resourcesText(n: TreeNode): string {
  const r = n.resources;
  if (!r) return 'runs in the agent’s pod';
  if (r.cpu_millicores === null || r.memory_bytes === null) return `not known (${r.reason ?? 'no reading'})`;
  return `${r.cpu_millicores} millicores, ${Math.round(r.memory_bytes / 1048576)} MiB`;
}

function Details({ node }: { node: TreeNode }) {
  const u = node.usage;
  const rows: [string, string][] = [
    ['Status', node.status],
    ['Current task', node.current_task ?? 'none'],
    ['Last event', when(node.last_event_at)],
    [
      'Recent usage',
      `${u.model_calls} model calls, ${u.tool_calls} tool calls, ${u.errors} errors, ${u.approvals} approvals`,
    ],
    ['Resources', resourcesText(node)],
  ];
  if (node.kind === 'subagent') rows.push(['Declared in the spec', node.declared ? 'yes' : 'no']);
  return (
    <section aria-labelledby="node-title" class="node-details" data-testid="node-details">
      <h3 id="node-title">{node.name}</h3>
      {node.description ? <p>{node.description}</p> : null}
      <dl class="facts">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function NodeButton({
  node,
  selected,
  onSelect,
}: {
  node: TreeNode;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button type="button" class="node" aria-pressed={selected} onClick={onSelect}>
      <span class="node-name">{node.name}</span>{' '}
      <span class={`phase phase-${node.status}`}>{node.status}</span>
      {node.current_task ? <span class="node-task">{node.current_task}</span> : null}
    </button>
  );
}

export function TreePanel({
  tree,
  error,
  selected,
  onSelect,
}: {
  tree: Tree | undefined;
  error: string | undefined;
  /** The subagent chosen ('' for the agent). */
  selected: string;
  onSelect: (subagent: string) => void;
}) {
  const root = tree?.nodes.find((n) => n.kind === 'agent');
  const subs = tree?.nodes.filter((n) => n.kind === 'subagent') ?? [];
  const chosen = tree?.nodes.find((n) =>
    selected ? n.kind === 'subagent' && n.name === selected : n === root,
  );
  return (
    <section aria-labelledby="tree-title" class="card console-tree">
      <h2 id="tree-title">Subagents</h2>
      <Alert text={error} />
      {root ? (
        <ul class="tree" data-testid="subagent-tree">
          <li>
            <NodeButton node={root} selected={selected === ''} onSelect={() => onSelect('')} />
            {subs.length > 0 ? (
              <ul>
                {subs.map((n) => (
                  <li key={n.name}>
                    <NodeButton
                      node={n}
                      selected={selected === n.name}
                      onSelect={() => onSelect(selected === n.name ? '' : n.name)}
                    />
                  </li>
                ))}
              </ul>
            ) : (
              <p class="muted">No subagents.</p>
            )}
          </li>
        </ul>
      ) : null}
      {chosen ? <Details node={chosen} /> : null}
    </section>
  );
}
