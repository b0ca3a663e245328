// The structured side of the definition editor: every field reads the model
// and every change is one model edit (the page writes it into the YAML).
import { useState } from 'preact/hooks';
import type { DefinitionModel } from '../../../crds/definitions/model.ts';
import {
  chainText,
  chainValue,
  errorsAt,
  getIn,
  layoutOf,
  linesText,
  linesValue,
  settingEntry,
  settingPath,
  settingRows,
  settingValue,
  withoutSetting,
  type Layout,
  type Path,
} from '../definition-form.ts';
import {
  CodecInput,
  Field,
  FreeFormBlock,
  ItemTable,
  type Column,
  type FieldError,
} from './definition-inputs.tsx';

type Obj = Record<string, unknown>;
const KINDS = ['PlatformAgent', 'PlatformWorkspace', 'PlatformEnvironment'];

export interface FormProps {
  model: DefinitionModel;
  errors: readonly FieldError[];
  /** Sets the value at `path` of the sections (undefined deletes; '' on a missing key adds nothing). */
  edit: (path: Path, value: unknown) => void;
  replace: (sections: Obj) => void;
  editBlock: (key: string, text: string) => void;
}

const CHAIN = { read: chainValue, show: chainText };
const LINES = { read: linesValue, show: linesText };

function TextField(p: FormProps & { path: Path; label: string; hint?: string; multiline?: boolean }) {
  const value = String(getIn(p.model.sections, p.path) ?? '');
  return (
    <Field
      path={p.path}
      label={p.label}
      errors={errorsAt(p.errors, p.path)}
      {...(p.hint ? { hint: p.hint } : {})}
    >
      {(attrs) =>
        p.multiline ? (
          <textarea
            {...attrs}
            rows={3}
            value={value}
            onInput={(e) => p.edit(p.path, e.currentTarget.value)}
          />
        ) : (
          <input
            {...attrs}
            type="text"
            value={value}
            onInput={(e) => p.edit(p.path, e.currentTarget.value)}
          />
        )
      }
    </Field>
  );
}

function ResourceFields(p: FormProps & { layout: Layout }) {
  const kind = p.layout.kind;
  const kinds = KINDS.includes(kind) || kind === '' ? KINDS : [kind, ...KINDS];
  return (
    <fieldset>
      <legend>Resource</legend>
      <Field path={['kind']} label="Kind" errors={errorsAt(p.errors, ['kind'])}>
        {(attrs) => (
          <select {...attrs} value={kind} onChange={(e) => p.edit(['kind'], e.currentTarget.value)}>
            {kind === '' ? <option value="">(none)</option> : null}
            {kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField {...p} path={['metadata', 'name']} label="Name (metadata.name)" />
      {p.layout.model ? <TextField {...p} path={p.layout.model} label="Model (spec.model.id)" /> : null}
    </fieldset>
  );
}

function ChainFields(p: FormProps & { layout: Layout }) {
  return (
    <>
      {(['preRequest', 'postResponse'] as const).map((phase) => {
        const path = [...p.layout.chain, phase];
        return (
          <Field
            key={phase}
            path={path}
            label={`Auditor chain, ${phase === 'preRequest' ? 'before the request' : 'after the response'} (${phase})`}
            hint="Auditor ids in order, separated by commas."
            errors={errorsAt(p.errors, path)}
          >
            {(attrs) => (
              <CodecInput
                attrs={attrs}
                stored={getIn(p.model.sections, path)}
                codec={CHAIN}
                onValue={(v) => p.edit(path, v)}
              />
            )}
          </Field>
        );
      })}
    </>
  );
}

function NewSetting({ onAdd }: { onAdd: (auditor: string, setting: string, value: string) => void }) {
  const [cells, setCells] = useState(['', '', '']);
  const labels = ['New setting: auditor', 'New setting: name', 'New setting: value'];
  return (
    <div class="item-row add-row">
      {labels.map((label, j) => (
        <div class="field" key={label}>
          <label for={`new-setting-${j}`}>{label}</label>
          <input
            id={`new-setting-${j}`}
            type="text"
            value={cells[j]}
            onInput={(e) => setCells(cells.map((v, k) => (k === j ? e.currentTarget.value : v)))}
          />
        </div>
      ))}
      <button
        type="button"
        disabled={cells.some((c) => c.trim() === '')}
        onClick={() => (onAdd(cells[0]!.trim(), cells[1]!.trim(), cells[2]!), setCells(['', '', '']))}
      >
        Add setting
      </button>
    </div>
  );
}

function SettingFields(p: FormProps & { layout: Layout }) {
  const settings = getIn(p.model.sections, p.layout.settings);
  const codec = {
    read: settingValue,
    show: (v: unknown) => settingRows({ a: { s: { value: v } } })[0]?.value ?? '',
  };
  return (
    <fieldset class="items">
      <legend>Auditor settings</legend>
      {settingRows(settings).map((row) => {
        const path = settingPath(p.layout, row.auditor, row.setting);
        const entry = getIn(p.model.sections, path);
        return (
          <div class="item-row" key={`${row.auditor}.${row.setting}`}>
            <Field
              path={[...path, 'value']}
              label={`${row.auditor}: ${row.setting}`}
              errors={errorsAt(p.errors, path)}
            >
              {(attrs) => (
                <CodecInput
                  attrs={attrs}
                  stored={getIn(entry, ['value'])}
                  codec={codec}
                  onValue={(v) => p.edit(path, { ...settingEntry(entry, {}), value: v })}
                />
              )}
            </Field>
            <label class="inline">
              <input
                type="checkbox"
                checked={row.enforced}
                onChange={(e) => p.edit(path, settingEntry(entry, { enforced: e.currentTarget.checked }))}
              />
              Enforced ({row.auditor}: {row.setting})
            </label>
            <button
              type="button"
              class="secondary"
              onClick={() =>
                p.replace(withoutSetting(p.model.sections, p.layout, row.auditor, row.setting) as Obj)
              }
            >
              Remove {row.auditor}: {row.setting}
            </button>
          </div>
        );
      })}
      <NewSetting
        onAdd={(a, s, v) => p.edit(settingPath(p.layout, a, s), settingEntry(undefined, { value: v }))}
      />
    </fieldset>
  );
}

const col = (label: string, ...path: Path): Column => ({ label, at: () => path });
/** A routing rule keeps the spelling its file uses (`injection_method` or `injectionMethod`). */
const methodColumn: Column = {
  label: 'Injection method',
  at: (item) =>
    typeof item === 'object' && item !== null && 'injection_method' in item
      ? ['injection_method']
      : ['injectionMethod'],
};

function ListFields(p: FormProps & { list: Path; caption: string; columns: Column[] }) {
  const items = getIn(p.model.sections, p.list);
  const list = Array.isArray(items) ? items : [];
  const onAdd = (cells: string[]) => {
    let item: unknown = {};
    p.columns.forEach((c, j) => {
      if (cells[j]!.trim() !== '') item = setPathValue(item, c.at({}), cells[j]!.trim());
    });
    p.edit(Array.isArray(items) ? [...p.list, list.length] : p.list, Array.isArray(items) ? item : [item]);
  };
  return (
    <ItemTable
      caption={p.caption}
      list={p.list}
      items={list}
      columns={p.columns}
      errorsAt={(path) => errorsAt(p.errors, path)}
      onCell={(path, text) =>
        p.edit(path, text === '' && getIn(p.model.sections, path) === undefined ? undefined : text)
      }
      onRemove={(i) => p.edit([...p.list, i], undefined)}
      onAdd={onAdd}
    />
  );
}

function setPathValue(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const obj = (typeof root === 'object' && root !== null ? { ...(root as Obj) } : {}) as Obj;
  obj[path[0] as string] = setPathValue(obj[path[0] as string], path.slice(1), value);
  return obj;
}

function AbilityFields(p: FormProps & { layout: Layout }) {
  const soul = [...p.layout.abilities, 'soul'];
  const guidelines = [...soul, 'guidelines'];
  return (
    <fieldset>
      <legend>Abilities: the soul</legend>
      <TextField {...p} path={[...soul, 'identity', 'name']} label="Identity: name" />
      <TextField {...p} path={[...soul, 'identity', 'role']} label="Identity: role" />
      <TextField {...p} path={[...soul, 'personality']} label="Personality" multiline />
      <Field
        path={guidelines}
        label="Guidelines"
        hint="One per line."
        errors={errorsAt(p.errors, guidelines)}
      >
        {(attrs) => (
          <CodecInput
            attrs={attrs}
            multiline
            stored={getIn(p.model.sections, guidelines)}
            codec={LINES}
            onValue={(v) => p.edit(guidelines, v)}
          />
        )}
      </Field>
    </fieldset>
  );
}

export function DefinitionForm(p: FormProps) {
  const layout = layoutOf(p.model.sections);
  return (
    <div class="definition-form">
      <ResourceFields {...p} layout={layout} />
      <fieldset>
        <legend>Auditors</legend>
        <ChainFields {...p} layout={layout} />
      </fieldset>
      <SettingFields {...p} layout={layout} />
      {layout.kind === 'PlatformEnvironment' ? null : (
        <ListFields
          {...p}
          list={[...layout.chain.slice(0, -1), 'owners']}
          caption="Owners"
          columns={[col('Subject', 'subject'), col('Role', 'role')]}
        />
      )}
      {layout.agents ? (
        <ListFields
          {...p}
          list={layout.agents}
          caption="Agents"
          columns={[col('Name', 'name'), col('Model', 'model', 'id')]}
        />
      ) : null}
      <AbilityFields {...p} layout={layout} />
      <ListFields
        {...p}
        list={[...layout.abilities, 'subagents']}
        caption="Subagents"
        columns={[col('Name', 'name'), col('Description', 'description')]}
      />
      <ListFields
        {...p}
        list={[...layout.environment, 'tools']}
        caption="Tools"
        columns={[col('Name', 'name'), col('Category', 'category')]}
      />
      <ListFields
        {...p}
        list={[...layout.environment, 'credentialRouting']}
        caption="Credential routing"
        columns={[col('Destination', 'destination'), methodColumn, col('Time to live', 'ttl')]}
      />
      {p.model.blocks.length ? (
        <fieldset>
          <legend>Free-form sections (kept as written, not applied)</legend>
          {p.model.blocks.map((b) => (
            <FreeFormBlock key={b.key} name={b.key} text={b.text} onText={(t) => p.editBlock(b.key, t)} />
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
