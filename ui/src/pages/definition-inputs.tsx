// The definition editor's inputs: a labelled field with its errors, a text
// field whose text is a codec of its value (kept as typed while it means the
// same), a table of list items, and a free-form block (committed to the file
// only while it is valid YAML).
import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { getIn, readDefinition, shownText, type Path } from '../definition-form.ts';
import { pathToString } from '../../../crds/definitions/errors.ts';

export interface FieldError {
  path: string;
  line: number;
  column: number;
  message: string;
  text: string;
}

const idOf = (path: Path): string => `f-${pathToString(path).replace(/[^A-Za-z0-9_-]+/g, '-')}`;

export function Errors({ id, errors }: { id: string; errors: readonly FieldError[] }) {
  if (errors.length === 0) return null;
  return (
    <div id={id} class="field-error error" role="alert">
      {errors.map((e) => (
        <p key={e.text}>
          Line {e.line}, column {e.column}: {e.message}
        </p>
      ))}
    </div>
  );
}

export function Field(props: {
  path: Path;
  label: string;
  errors: readonly FieldError[];
  hint?: string;
  children: (attrs: {
    id: string;
    'aria-describedby'?: string;
    'aria-invalid'?: boolean;
  }) => ComponentChildren;
}) {
  const id = idOf(props.path);
  const described = [props.hint ? `${id}-hint` : '', props.errors.length ? `${id}-err` : ''].filter(Boolean);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children({
        id,
        ...(described.length ? { 'aria-describedby': described.join(' ') } : {}),
        ...(props.errors.length ? { 'aria-invalid': true } : {}),
      })}
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <Errors id={`${id}-err`} errors={props.errors} />
    </div>
  );
}

export interface Codec<T> {
  read: (text: string) => T;
  show: (value: unknown) => string;
}

/** A field whose text is read into a value: what is typed stays while it means the stored value. */
export function CodecInput<T>(props: {
  attrs: Record<string, unknown>;
  stored: unknown;
  codec: Codec<T>;
  multiline?: boolean;
  onValue: (value: T) => void;
}) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const value = shownText(draft, props.stored, props.codec);
  const onInput = (e: Event) => {
    const text = (e.currentTarget as HTMLInputElement).value;
    setDraft(text);
    const next = props.codec.read(text);
    if (JSON.stringify(next) !== JSON.stringify(props.stored ?? props.codec.read(''))) props.onValue(next);
  };
  return props.multiline ? (
    <textarea {...props.attrs} rows={3} value={value} onInput={onInput} />
  ) : (
    <input {...props.attrs} type="text" value={value} onInput={onInput} />
  );
}

export interface Column {
  label: string;
  /** The cell's path inside one item (it may depend on the item: a snake_case spelling kept). */
  at: (item: unknown) => Path;
}

function AddRow({
  base,
  caption,
  columns,
  onAdd,
}: {
  base: string;
  caption: string;
  columns: readonly Column[];
  onAdd: (cells: string[]) => void;
}) {
  const [adding, setAdding] = useState<string[]>(columns.map(() => ''));
  return (
    <div class="item-row add-row">
      {columns.map((c, j) => (
        <div class="field" key={c.label}>
          <label for={`${base}-new-${j}`}>
            New in {caption.toLowerCase()}: {c.label}
          </label>
          <input
            id={`${base}-new-${j}`}
            type="text"
            value={adding[j]}
            onInput={(e) => setAdding(adding.map((v, k) => (k === j ? e.currentTarget.value : v)))}
          />
        </div>
      ))}
      <button
        type="button"
        disabled={adding[0]!.trim() === ''}
        onClick={() => (onAdd(adding), setAdding(columns.map(() => '')))}
      >
        Add to {caption.toLowerCase()}
      </button>
    </div>
  );
}

export function ItemTable(props: {
  caption: string;
  list: Path;
  items: readonly unknown[];
  columns: readonly Column[];
  errorsAt: (path: Path) => FieldError[];
  onCell: (path: Path, text: string) => void;
  onRemove: (index: number) => void;
  onAdd: (cells: string[]) => void;
}) {
  const base = idOf(props.list);
  return (
    <fieldset class="items">
      <legend>{props.caption}</legend>
      {props.items.map((item, i) => (
        <div class="item-row" key={i}>
          {props.columns.map((c) => {
            const path = [...props.list, i, ...c.at(item)];
            const errors = props.errorsAt(path);
            return (
              <Field
                key={c.label}
                path={path}
                label={`${props.caption} ${i + 1}: ${c.label}`}
                errors={errors}
              >
                {(attrs) => (
                  <input
                    {...attrs}
                    type="text"
                    value={String(getIn(item, c.at(item)) ?? '')}
                    onInput={(e) => props.onCell(path, e.currentTarget.value)}
                  />
                )}
              </Field>
            );
          })}
          <button type="button" class="secondary" onClick={() => props.onRemove(i)}>
            Remove from {props.caption.toLowerCase()}: {i + 1}
          </button>
        </div>
      ))}
      <AddRow base={base} caption={props.caption} columns={props.columns} onAdd={props.onAdd} />
    </fieldset>
  );
}

function problemOf(text: string) {
  const check = readDefinition(text);
  return 'problem' in check ? check.problem : undefined;
}

/** A top-level section the platform does not know: its text, written back only while it is valid YAML. */
export function FreeFormBlock(props: { name: string; text: string; onText: (text: string) => void }) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const problem = draft === undefined ? undefined : problemOf(draft);
  // The draft while it is the file's text or not yet valid; else the file's (changed on the YAML side).
  const shown = draft !== undefined && (draft === props.text || problem) ? draft : props.text;
  const id = `block-${props.name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
  return (
    <div class="field free-form">
      <label for={id}>Free-form section {props.name}</label>
      <textarea
        id={id}
        class="code"
        rows={Math.min(12, shown.split('\n').length + 1)}
        value={shown}
        aria-describedby={problem ? `${id}-err` : undefined}
        onInput={(e) => {
          const text = e.currentTarget.value;
          setDraft(text);
          if (!problemOf(text)) props.onText(text);
        }}
      />
      {problem ? (
        <p id={`${id}-err`} class="field-error error" role="alert">
          Not valid YAML yet (line {problem.line}, column {problem.column}): {problem.message}. The file keeps
          this section's last valid text.
        </p>
      ) : null}
    </div>
  );
}
