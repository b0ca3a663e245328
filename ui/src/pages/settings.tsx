// Auditor settings per tier (org, workspace, agent): pick the tier, pick an
// auditor, and every setting of its schema is a control with its inheritance
// badge, Override/Save and Reset (setting-field.tsx).
import { useState } from 'preact/hooks';
import { get } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import { useLoad } from '../hooks.ts';
import { settingsHref, type SettingsScope } from '../route.ts';
import { fieldsOf, type AuditorSchema, type SettingView } from '../settings-model.ts';
import { ScopePicker } from './scope-picker.tsx';
import { SettingField } from './setting-field.tsx';

interface AuditorItem {
  auditor_id: string;
  name?: string;
}

export const targetWords = (t: SettingsScope): string =>
  t.scope === 'org'
    ? `organization ${t.organization}`
    : t.scope === 'workspace'
      ? `workspace ${t.namespace}/${t.workspace}`
      : `agent ${t.agent_id}`;

function AuditorSettings({ target, auditorId }: { target: SettingsScope; auditorId: string }) {
  const schema = useLoad(
    () => get<AuditorSchema>(`/v1/auditors/schema/${encodeURIComponent(auditorId)}`),
    [auditorId],
  );
  const q = new URLSearchParams(target as unknown as Record<string, string>).toString();
  const views = useLoad(() => get<{ items: SettingView[] }>(`/v1/auditors/settings?${q}`), [q]);
  const error = schema.error ?? views.error;
  if (!schema.data || !views.data)
    return error ? <Alert text={error} /> : <Status text="Loading the settings…" />;
  const fields = fieldsOf(schema.data, views.data.items, target.scope);
  if (fields.length === 0) return <p>This auditor has no settings.</p>;
  return (
    <div class="settings" data-testid="settings">
      <Alert text={error} />
      {fields.map((f) => (
        <SettingField
          key={`${auditorId}.${f.def.key}`}
          auditorId={auditorId}
          field={f}
          target={target}
          onSaved={views.reload}
        />
      ))}
    </div>
  );
}

export function SettingsPage({ target }: { target?: SettingsScope | undefined }) {
  const auditors = useLoad(() => get<{ items: AuditorItem[] }>('/v1/auditors'), []);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const auditorId = chosen ?? auditors.data?.items[0]?.auditor_id;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Auditor settings</h1>
      {!target ? (
        <ScopePicker
          title="Which settings?"
          submitLabel="Open settings"
          onPick={(t) => (location.hash = settingsHref(t))}
        />
      ) : (
        <>
          <p class="crumbs">
            Settings of the {targetWords(target)} · <a href="#/settings">Choose another scope</a>
          </p>
          <Alert text={auditors.error} />
          <p class="field">
            <label for="auditor">Auditor</label>
            <select id="auditor" value={auditorId} onChange={(e) => setChosen(e.currentTarget.value)}>
              {(auditors.data?.items ?? []).map((a) => (
                <option key={a.auditor_id} value={a.auditor_id}>
                  {a.name && a.name !== a.auditor_id ? `${a.name} (${a.auditor_id})` : a.auditor_id}
                </option>
              ))}
            </select>
          </p>
          {auditorId ? <AuditorSettings key={auditorId} target={target} auditorId={auditorId} /> : null}
        </>
      )}
    </section>
  );
}
