// Which tier: an organization, a workspace or an agent, chosen from the ones
// the person may see (GET /v1/scopes, GET /v1/agents). Settings, credentials
// and tools pages share it; `onPick` gets the target.
import { useState } from 'preact/hooks';
import { get, getAll } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import { useLoad } from '../hooks.ts';
import type { AgentView } from '../model.ts';
import type { SettingsScope } from '../route.ts';
import { noneWords, targetOf, tierOptions, type ScopesView, type Tier } from '../scopes-model.ts';

const TIER_WORDS: Record<Tier, string> = { org: 'Organization', workspace: 'Workspace', agent: 'Agent' };
const EMPTY: ScopesView = { organizations: [], workspaces: [] };

interface PickerProps {
  /** The form's heading. */
  title: string;
  /** Which tiers may be picked, in order (the first is chosen at first). */
  tiers?: readonly Tier[];
  submitLabel: string;
  onPick: (target: SettingsScope) => void;
}

function TierChoice({ tier, scopes, agents }: { tier: Tier; scopes: ScopesView; agents: string[] }) {
  const options = tierOptions(tier, scopes, agents);
  if (options.length === 0) return <p>{noneWords(tier)}</p>;
  return (
    <p class="field">
      <label for="pick-target">{TIER_WORDS[tier]}</label>
      <select id="pick-target" name="target" required>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </p>
  );
}

export function ScopePicker({
  title,
  tiers = ['org', 'workspace', 'agent'],
  submitLabel,
  onPick,
}: PickerProps) {
  const [tier, setTier] = useState<Tier>(tiers[0] ?? 'org');
  const scopes = useLoad(() => get<ScopesView>('/v1/scopes'), []);
  const agents = useLoad(
    () => (tiers.includes('agent') ? getAll<AgentView>('/v1/agents') : Promise.resolve([])),
    [],
  );
  const [error, setError] = useState<string | undefined>(undefined);
  const loading = scopes.loading || agents.loading;
  return (
    <form
      class="card"
      aria-labelledby="pick-title"
      onSubmit={(e) => {
        e.preventDefault();
        const target = targetOf(tier, String(new FormData(e.currentTarget).get('target') ?? ''));
        if (target) onPick(target);
        else setError(`Choose ${TIER_WORDS[tier].toLowerCase()} first.`);
      }}
    >
      <h2 id="pick-title">{title}</h2>
      <fieldset class="choices">
        <legend>Scope</legend>
        {tiers.map((s) => (
          <label key={s} class="inline">
            <input type="radio" name="scope" value={s} checked={tier === s} onChange={() => setTier(s)} />{' '}
            {TIER_WORDS[s]}
          </label>
        ))}
      </fieldset>
      <Alert text={scopes.error ?? agents.error ?? error} />
      {loading ? (
        <Status text="Loading what you may see…" />
      ) : (
        <TierChoice
          tier={tier}
          scopes={scopes.data ?? EMPTY}
          agents={(agents.data ?? []).map((a) => a.agent_id)}
        />
      )}
      <button type="submit">{submitLabel}</button>
    </form>
  );
}
