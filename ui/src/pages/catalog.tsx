// The app catalog grouped by category. With an agent chosen the list is that
// agent's view (tools its org or workspace blocks are left out by the API)
// and each app can be installed on it, or uninstalled; a refusal (blocked,
// required) is shown on the app's card in words.
import { useState } from 'preact/hooks';
import { call, get, getAll } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import {
  byCategory,
  wizardTools,
  type CatalogApp,
  type EffectiveTool,
  type InstalledApp,
} from '../catalog-model.ts';
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
  requiredBy,
  onChanged,
}: {
  app: CatalogApp;
  agentId: string | undefined;
  installed: boolean;
  requiredBy: string | undefined;
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
      {requiredBy ? <p class="required">Required by {requiredBy}: pre-installed.</p> : null}
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

/** What an agent's view adds: `items` of the agent (none without one), read again by `reload`. */
function useForAgent<T>(agentId: string, path: (id: string) => string) {
  return useLoad(
    () => (agentId ? get<{ items: T[] }>(path(enc(agentId))) : Promise.resolve({ items: [] as T[] })),
    [agentId],
  );
}

/** The catalog (the agent's view when one is chosen), its installs and the apps its tiers require. */
function useCatalog(agentId: string) {
  const apps = useLoad(
    () => get<{ items: CatalogApp[] }>(`/v1/app-catalog${agentId ? `?agent_id=${enc(agentId)}` : ''}`),
    [agentId],
  );
  const installed = useForAgent<InstalledApp>(agentId, (id) => `/v1/app-catalog/agents/${id}/installed`);
  const rulings = useForAgent<EffectiveTool>(agentId, (id) => `/v1/scoped-tools/effective?agent_id=${id}`);
  const required = new Map(
    wizardTools(apps.data?.items ?? [], rulings.data?.items ?? []).flatMap((t) =>
      t.requiredBy ? [[t.app_id, t.requiredBy] as const] : [],
    ),
  );
  return {
    apps,
    have: new Set((installed.data?.items ?? []).map((i) => i.app_id)),
    required,
    error: apps.error ?? installed.error ?? rulings.error,
    reload: () => {
      apps.reload();
      installed.reload();
      rulings.reload();
    },
  };
}

export function CatalogPage() {
  const [agentId, setAgentId] = useState('');
  const { apps, have, required, error, reload } = useCatalog(agentId);
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
      <Alert text={error} />
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
                requiredBy={required.get(a.app_id)}
                onChanged={reload}
              />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
