// The wizard's tool step: the catalog as the new agent sees it (blocked tools
// left out), grouped by category; required tools checked and locked with the
// tier requiring them. "Install and finish" installs each; a refused one is
// named with the reason and the rest still go in.
import { useState } from 'preact/hooks';
import { call, get } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import {
  byCategory,
  toInstall,
  wizardTools,
  type CatalogApp,
  type EffectiveTool,
  type WizardTool,
} from '../catalog-model.ts';
import { describeError } from '../errors.ts';
import { useLoad } from '../hooks.ts';

const enc = encodeURIComponent;

async function loadTools(agentId: string) {
  const [apps, effective] = await Promise.all([
    get<{ items: CatalogApp[] }>(`/v1/app-catalog?agent_id=${enc(agentId)}`),
    get<{ items: EffectiveTool[] }>(`/v1/scoped-tools/effective?agent_id=${enc(agentId)}`),
  ]);
  return wizardTools(apps.items, effective.items);
}

function ToolList({
  tools,
  chosen,
  onToggle,
}: {
  tools: WizardTool[];
  chosen: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
}) {
  return (
    <>
      {byCategory(tools).map(([category, list]) => (
        <fieldset key={category} class="choices" data-testid="wizard-category">
          <legend>{category}</legend>
          {list.map((t) => (
            <label key={t.app_id} class="tool" data-testid="wizard-tool" data-app={t.app_id}>
              <input
                type="checkbox"
                checked={t.requiredBy !== undefined || chosen.has(t.app_id)}
                disabled={t.requiredBy !== undefined}
                onChange={(e) => onToggle(t.app_id, e.currentTarget.checked)}
              />{' '}
              {t.name}
              {t.requiredBy ? <span class="required"> (required by {t.requiredBy})</span> : null}
            </label>
          ))}
        </fieldset>
      ))}
    </>
  );
}

export function ToolStep({ agentId, onDone }: { agentId: string; onDone: (installed: string[]) => void }) {
  const tools = useLoad(() => loadTools(agentId), [agentId]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [failures, setFailures] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  const finish = async () => {
    setBusy(true);
    const done: string[] = [];
    const failed: string[] = [];
    for (const app of toInstall(tools.data ?? [], chosen)) {
      try {
        await call('POST', `/v1/app-catalog/agents/${enc(agentId)}/install`, { app_id: app });
        done.push(app);
      } catch (e) {
        failed.push(`${app}: ${describeError(e)}`);
      }
    }
    setBusy(false);
    setFailures(failed);
    if (failed.length === 0) onDone(done);
  };
  if (!tools.data) return tools.error ? <Alert text={tools.error} /> : <Status text="Loading the tools…" />;
  return (
    <form
      class="card"
      aria-labelledby="tools-title"
      onSubmit={(e) => {
        e.preventDefault();
        void finish();
      }}
    >
      <h2 id="tools-title">Tools for {agentId}</h2>
      <p class="hint">
        Tools its organization or workspace blocks are not offered; required ones are pre-installed.
      </p>
      <ToolList tools={tools.data} chosen={chosen} onToggle={toggle} />
      {failures.length > 0 ? (
        <div class="error" role="alert">
          <p>Some apps could not be installed:</p>
          <ul>
            {failures.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <button type="submit" disabled={busy}>
        Install and finish
      </button>
    </form>
  );
}
