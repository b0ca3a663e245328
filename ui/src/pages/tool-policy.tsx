// Tool enforcement at an org or workspace tier: every catalog app with this
// tier's ruling (not set, available, required, blocked), changed with Save;
// a refusal (a workspace loosening its organization's ruling) is shown on the
// tool's row in the server's words. For an agent: each tool a tier above it
// rules on, and where that ruling comes from.
import { useState } from 'preact/hooks';
import { call, get } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import type { CatalogApp } from '../catalog-model.ts';
import {
  authWords,
  ENFORCEMENT_WORDS,
  rulingWords,
  tierParams,
  tierQuery,
  toolRows,
  type EffectiveToolView,
  type Enforcement,
  type Tier,
  type ToolRow,
  type ToolView,
} from '../credentials-model.ts';
import { describeError } from '../errors.ts';
import { useLoad } from '../hooks.ts';

type Choice = Enforcement | 'unset';

function ToolLabel({ id, row }: { id: string; row: ToolRow }) {
  return (
    <label for={id}>
      {row.name}{' '}
      <span class="sub">
        {row.category} ·{' '}
        <span data-testid="tool-here">
          {row.install ? `set here: ${ENFORCEMENT_WORDS[row.install.enforcement]}` : 'not set here'}
        </span>
      </span>
    </label>
  );
}

function ToolItem(p: { row: ToolRow; tier: Tier; onSaved: () => void; readOnly: boolean }) {
  const { row, tier, onSaved } = p;
  const current: Choice = row.install?.enforcement ?? 'unset';
  const [choice, setChoice] = useState<Choice>(current);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const id = `tool-${row.app_id}`;
  const save = async () => {
    setBusy(true);
    try {
      if (choice === 'unset' && row.install)
        await call('DELETE', `/v1/scoped-tools/${encodeURIComponent(row.install.id)}`);
      else if (choice !== 'unset')
        await call('POST', '/v1/scoped-tools', {
          ...tierParams(tier),
          tool: row.app_id,
          enforcement: choice,
        });
      setError(undefined);
      onSaved();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="tool-row" data-testid="tool" data-tool={row.app_id}>
      <ToolLabel id={id} row={row} />
      <select
        id={id}
        value={choice}
        disabled={p.readOnly}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => setChoice(e.currentTarget.value as Choice)}
      >
        <option value="unset">Not set here</option>
        <option value="available">Available</option>
        <option value="required">Required</option>
        <option value="blocked">Blocked</option>
      </select>
      <button
        type="button"
        class="secondary"
        disabled={busy || choice === current}
        onClick={() => void save()}
      >
        Save<span class="visually-hidden"> {row.name}</span>
      </button>
      {error ? (
        <p id={`${id}-error`} class="error tool-error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}

export function TierTools({ tier, readOnly }: { tier: Tier; readOnly: boolean }) {
  const q = tierQuery(tier);
  const apps = useLoad(() => get<{ items: CatalogApp[] }>('/v1/app-catalog'), []);
  const installs = useLoad(() => get<{ items: ToolView[] }>(`/v1/scoped-tools?${q}`), [q]);
  const error = installs.error ?? apps.error;
  if (!apps.data || !installs.data)
    return error ? <Alert text={error} /> : <Status text="Loading the tools…" />;
  const rows = toolRows(apps.data.items, installs.data.items);
  return (
    <>
      <p class="help">
        Required tools are pre-installed on every agent below this tier; blocked ones are hidden from their
        catalog. A workspace may only tighten its organization’s rulings.
      </p>
      <ul class="tools" aria-label="Tool enforcement at this tier">
        {rows.map((r) => (
          <ToolItem
            key={`${r.app_id}:${r.install?.enforcement ?? 'unset'}`}
            row={r}
            readOnly={readOnly}
            tier={tier}
            onSaved={installs.reload}
          />
        ))}
      </ul>
    </>
  );
}

export function EffectiveTools({ agentId }: { agentId: string }) {
  const tools = useLoad(
    () =>
      get<{ items: EffectiveToolView[] }>(
        `/v1/scoped-tools/effective?agent_id=${encodeURIComponent(agentId)}`,
      ),
    [agentId],
  );
  if (!tools.data) return tools.error ? <Alert text={tools.error} /> : <Status text="Loading the tools…" />;
  if (tools.data.items.length === 0)
    return <p>No organization or workspace rules on a tool for this agent.</p>;
  return (
    <table data-testid="effective-tools">
      <caption>Tools the agent’s organization and workspace rule on</caption>
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">State</th>
          <th scope="col">Where from</th>
          <th scope="col">Auth</th>
        </tr>
      </thead>
      <tbody>
        {tools.data.items.map((t) => (
          <tr key={t.tool} data-tool={t.tool}>
            <th scope="row">{t.tool}</th>
            <td class={`state-${t.state}`}>{ENFORCEMENT_WORDS[t.state]}</td>
            <td>
              {rulingWords(t)}
              {t.conflict ? <span class="warn"> {t.conflict}</span> : null}
            </td>
            <td>{authWords(t.auth_status)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
