// The agent list: every agent the caller may see, with status, Owners and
// trust tier, and a search box that filters as you type.
import { useMemo, useState } from 'preact/hooks';
import { getAll } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import { useLoad } from '../hooks.ts';
import { ownersOf, searchAgents, statusOf, trustTierOf, type AgentView } from '../model.ts';
import { hrefOf } from '../route.ts';

function AgentRow({ agent }: { agent: AgentView }) {
  const owners = ownersOf(agent);
  return (
    <tr>
      <th scope="row">
        <a href={hrefOf({ page: 'agent', id: agent.agent_id })}>{agent.name}</a>
        <span class="sub">{agent.namespace}</span>
      </th>
      <td>
        <span class={`phase phase-${agent.phase}`}>{statusOf(agent)}</span>
      </td>
      <td>{owners.length ? owners.join(', ') : <span class="warn">no Owner</span>}</td>
      <td>{trustTierOf(agent)}</td>
    </tr>
  );
}

export function AgentTable({ agents }: { agents: readonly AgentView[] }) {
  return (
    <table class="agents" data-testid="agents-table">
      <caption class="visually-hidden">Agents</caption>
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Status</th>
          <th scope="col">Owners</th>
          <th scope="col">Trust tier</th>
        </tr>
      </thead>
      <tbody>
        {agents.map((a) => (
          <AgentRow key={a.agent_id} agent={a} />
        ))}
      </tbody>
    </table>
  );
}

export function AgentsPage() {
  const { data, error, loading } = useLoad(() => getAll<AgentView>('/v1/agents'), []);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => searchAgents(data ?? [], query), [data, query]);
  return (
    <section aria-labelledby="agents-title">
      <div class="page-head">
        <h1 id="agents-title">Agents</h1>
        <a class="button" href={hrefOf({ page: 'new-agent' })}>
          New agent
        </a>
      </div>
      <div class="toolbar" role="search">
        <label for="agent-search">Search agents</label>
        <input
          id="agent-search"
          type="search"
          value={query}
          placeholder="name, owner, status or tier"
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <span role="status" class="count">
          {`${shown.length} of ${data?.length ?? 0} agents`}
        </span>
      </div>
      <Alert text={error} />
      <Status text="Loading agents…" when={loading && !data} />
      {data && data.length === 0 ? <p>No agents are shared with you yet.</p> : null}
      {shown.length > 0 ? <AgentTable agents={shown} /> : null}
      {data && data.length > 0 && shown.length === 0 ? <p>No agent matches “{query}”.</p> : null}
    </section>
  );
}
