// The app catalog grouped by category. With an agent chosen the list is that
// agent's view (tools its org or workspace blocks are left out by the API)
// and each app can be installed on it, or uninstalled; a refusal (blocked,
// required) is shown on the app's card in words.
import { useState } from 'preact/hooks';
import { call, get, getAll } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import { byCategory, type CatalogApp, type InstalledApp } from '../catalog-model.ts';
import { describeError } from '../errors.ts';
import { useLoad } from '../hooks.ts';
import type { AgentView } from '../model.ts';
import { hrefOf } from '../route.ts';

const enc = encodeURIComponent;
const slug = (category: string): string => `cat-${category.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

function AppCard({
  app,
  agentId,
  installed,
  onChanged,
}: {
  app: CatalogApp;
  agentId: string | undefined;
  installed: boolean;
  onChanged: () => void;
}) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const act = async () => {
    if (!agentId) return;
    setBusy(true);
    try {
      if (installed)
        await call('DELETE', `/v1/app-catalog/agents/${enc(agentId)}/uninstall?app_id=${enc(app.app_id)}`);
      else await call('POST', `/v1/app-catalog/agents/${enc(agentId)}/install`, { app_id: app.app_id });
      setError(undefined);
      onChanged();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const title = `app-${app.app_id}`;
  return (
    <li class="card app" aria-labelledby={title} data-testid="app-card" data-app={app.app_id}>
      <h3 id={title}>{app.name}</h3>
      <p class="meta">
        <span>{app.type.replace(/_/g, ' ')}</span> · <span>trust tier {app.trust_tier}</span> ·{' '}
        <span>
          {app.install_count} install{app.install_count === 1 ? '' : 's'}
        </span>
      </p>
      {app.description ? <p>{app.description}</p> : null}
      {agentId ? (
        <div class="actions">
          {installed ? <span class="role role-Owner">Installed</span> : null}
          <button
            type="button"
            class={installed ? 'secondary' : ''}
            disabled={busy}
            onClick={() => void act()}
          >
            {installed ? 'Uninstall' : 'Install'}
            <span class="visually-hidden"> {app.name}</span>
          </button>
        </div>
      ) : null}
      <Alert text={error} />
    </li>
  );
}

function AgentPicker({ value, onPick }: { value: string; onPick: (id: string) => void }) {
  const agents = useLoad(() => getAll<AgentView>('/v1/agents'), []);
  return (
    <p class="field">
      <label for="catalog-agent">Install on agent</label>
      <select id="catalog-agent" value={value} onChange={(e) => onPick(e.currentTarget.value)}>
        <option value="">Choose an agent…</option>
        {(agents.data ?? []).map((a) => (
          <option key={a.agent_id} value={a.agent_id}>
            {a.agent_id}
          </option>
        ))}
      </select>
      <Alert text={agents.error} />
    </p>
  );
}

export function CatalogPage() {
  const [agentId, setAgentId] = useState('');
  const apps = useLoad(
    () => get<{ items: CatalogApp[] }>(`/v1/app-catalog${agentId ? `?agent_id=${enc(agentId)}` : ''}`),
    [agentId],
  );
  const installed = useLoad(
    () =>
      agentId
        ? get<{ items: InstalledApp[] }>(`/v1/app-catalog/agents/${enc(agentId)}/installed`)
        : Promise.resolve({ items: [] }),
    [agentId],
  );
  const have = new Set((installed.data?.items ?? []).map((i) => i.app_id));
  const reload = () => {
    apps.reload();
    installed.reload();
  };
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">App catalog</h1>
      <p>
        MCP servers, auditors, A2A agents, skills and runtimes an agent can use.{' '}
        <a href="#/agents/new">Create an agent</a> with the wizard.
      </p>
      <AgentPicker value={agentId} onPick={setAgentId} />
      {agentId ? (
        <p class="hint">
          Apps blocked for <a href={hrefOf({ page: 'agent', id: agentId })}>{agentId}</a> are not shown.
        </p>
      ) : null}
      <Alert text={apps.error ?? installed.error} />
      <Status text="Loading the catalog…" when={!apps.data && apps.loading} />
      {byCategory(apps.data?.items ?? []).map(([category, list]) => (
        <section key={category} aria-labelledby={slug(category)} data-testid="category">
          <h2 id={slug(category)}>{category}</h2>
          <ul class="apps">
            {list.map((a) => (
              <AppCard
                key={a.app_id}
                app={a}
                agentId={agentId || undefined}
                installed={have.has(a.app_id)}
                onChanged={reload}
              />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
