// One setting at one tier: its control, the badge saying where the value in
// effect comes from, Save (set or override it here, optionally locked for the
// tiers below), Reset (inherit again) and, beside it, why the server refused
// a value. What was typed stays in the control after any error.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { ApiError, describeError } from '../errors.ts';
import type { SettingsScope } from '../route.ts';
import {
  besideField,
  draftOf,
  fromWords,
  showValue,
  valueOf,
  type Draft,
  type Field,
  type SettingView,
} from '../settings-model.ts';
import { SettingControl } from './setting-control.tsx';

const query = (target: SettingsScope, extra: Record<string, string>): string =>
  new URLSearchParams({ ...(target as unknown as Record<string, string>), ...extra }).toString();

function Badge({ field, id }: { field: Field; id: string }) {
  const kind = field.from === 'default' ? 'default' : field.badge.split(' ')[0]!.toLowerCase();
  return (
    <span id={id} class={`setting-badge badge-${kind}`} data-testid="setting-badge">
      {field.badge}
      <span class="from"> · from {fromWords(field)}</span>
    </span>
  );
}

interface Props {
  auditorId: string;
  field: Field;
  target: SettingsScope;
  onSaved: () => void;
}

/** The draft, the lock and the error of one field, and its Save and Reset. */
function useSettingEdit({ auditorId, field, target, onSaved }: Props) {
  const { def } = field;
  const [draft, setDraft] = useState<Draft>(() => draftOf(def, field.value));
  const [dirty, setDirty] = useState(false);
  const [lock, setLock] = useState(field.locked);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!dirty) setDraft(draftOf(def, field.value));
  }, [JSON.stringify(field.value)]);
  const run = async (work: () => Promise<SettingView | null>) => {
    setBusy(true);
    try {
      const view = await work();
      setError(undefined);
      setDirty(false);
      setDraft(draftOf(def, view ? view.value : def.default));
      onSaved();
    } catch (e) {
      const near =
        e instanceof ApiError ? new ApiError(e.status, besideField(e.detail, auditorId, def.key), e.code) : e;
      setError(describeError(near));
    } finally {
      setBusy(false);
    }
  };
  const save = () => {
    const parsed = valueOf(def, draft);
    if ('problem' in parsed) return setError(parsed.problem);
    const body = { ...target, auditor_id: auditorId, setting: def.key, value: parsed.value, locked: lock };
    void run(
      async () => (await call<{ setting: SettingView }>('PUT', '/v1/auditors/settings', body)).setting,
    );
  };
  const reset = () =>
    void run(
      async () =>
        (
          await call<{ setting: SettingView | null }>(
            'DELETE',
            `/v1/auditors/settings?${query(target, { auditor_id: auditorId, setting: def.key })}`,
          )
        ).setting,
    );
  const edit = (d: Draft) => {
    setDraft(d);
    setDirty(true);
  };
  return { draft, edit, lock, setLock, error, busy, save, reset };
}

function Actions({ p, e }: { p: Props; e: ReturnType<typeof useSettingEdit> }) {
  const { def } = p.field;
  const disabled = e.busy || !p.field.editable;
  return (
    <div class="actions">
      {p.target.scope !== 'agent' ? (
        <label class="inline">
          <input
            type="checkbox"
            checked={e.lock}
            disabled={disabled}
            onChange={(ev) => e.setLock(ev.currentTarget.checked)}
          />
          Lock for lower tiers<span class="visually-hidden"> ({def.label})</span>
        </label>
      ) : null}
      <button type="button" disabled={disabled} onClick={e.save}>
        {p.field.setHere ? 'Save' : 'Override'}
        <span class="visually-hidden"> {def.label}</span>
      </button>
      {p.field.setHere ? (
        <button type="button" class="secondary" disabled={disabled} onClick={e.reset}>
          Reset<span class="visually-hidden"> {def.label}</span>
        </button>
      ) : null}
    </div>
  );
}

export function SettingField(p: Props) {
  const { field, auditorId } = p;
  const { def } = field;
  const e = useSettingEdit(p);
  const id = `set-${auditorId}-${def.key}`;
  return (
    <div class={`setting ${e.error ? 'has-error' : ''}`} data-testid="setting" data-key={def.key}>
      <div class="setting-head">
        <label for={id}>
          {def.label}
          {def.unit ? <span class="unit"> ({def.unit})</span> : null}
        </label>
        <Badge field={field} id={`${id}-badge`} />
      </div>
      <SettingControl
        id={id}
        def={def}
        control={field.control}
        draft={e.draft}
        disabled={e.busy || !field.editable}
        invalid={!!e.error}
        describedBy={`${id}-badge${e.error ? ` ${id}-error` : ''}`}
        onChange={e.edit}
      />
      <p class="hint">Default: {showValue(def.default)}</p>
      {e.error ? (
        <p id={`${id}-error`} class="error field-error" role="alert">
          {e.error}
        </p>
      ) : null}
      <Actions p={p} e={e} />
    </div>
  );
}
