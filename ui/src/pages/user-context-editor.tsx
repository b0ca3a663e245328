// The user-context tab: the markdown file (preferences, context, notes, and
// any other section kept as written) as a form beside its raw text; a form
// edit rewrites only the lines it concerns (crds/definitions/user-context.ts).
import { useState } from 'preact/hooks';
import {
  parseUserContext,
  serializeUserContext,
  type UserContext,
} from '../../../crds/definitions/user-context.ts';
import { USER_CONTEXT_TEMPLATE } from '../definition-templates.ts';
import {
  preferenceProblem,
  renamePreference,
  setPreference,
  withModel,
  withNote,
  withoutPreference,
} from '../user-context-form.ts';
import { download } from './definition-actions.ts';
import { PaneSwitch } from './definition-parts.tsx';

type Change = (change: Partial<UserContext>) => void;

function NewPreference({ prefs, change }: { prefs: Record<string, string>; change: Change }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const problem = key === '' ? undefined : preferenceProblem(prefs, key);
  return (
    <div class="item-row add-row">
      <div class="field">
        <label for="pref-new-key">New preference: name</label>
        <input
          id="pref-new-key"
          type="text"
          value={key}
          aria-describedby={problem ? 'pref-new-err' : undefined}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="pref-new-value">New preference: value</label>
        <input
          id="pref-new-value"
          type="text"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </div>
      <button
        type="button"
        disabled={key.trim() === '' || problem !== undefined}
        onClick={() => (
          change({ preferences: setPreference(prefs, key.trim(), value) }),
          setKey(''),
          setValue('')
        )}
      >
        Add preference
      </button>
      {problem ? (
        <p id="pref-new-err" class="field-error error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function Preferences({ model, change }: { model: UserContext; change: Change }) {
  const prefs = model.preferences;
  return (
    <fieldset class="items">
      <legend>Preferences</legend>
      {Object.entries(prefs).map(([k, v], i) => (
        <div class="item-row" key={i}>
          <div class="field">
            <label for={`pref-key-${i}`}>Preference {i + 1}: name</label>
            <input
              id={`pref-key-${i}`}
              type="text"
              value={k}
              onChange={(e) =>
                change({ preferences: renamePreference(prefs, k, e.currentTarget.value.trim()) })
              }
            />
          </div>
          <div class="field">
            <label for={`pref-value-${i}`}>
              Preference {i + 1}: value ({k})
            </label>
            <input
              id={`pref-value-${i}`}
              type="text"
              value={v}
              onInput={(e) => change({ preferences: setPreference(prefs, k, e.currentTarget.value) })}
            />
          </div>
          <button
            type="button"
            class="secondary"
            onClick={() => change({ preferences: withoutPreference(prefs, k) })}
          >
            Remove preference {k}
          </button>
        </div>
      ))}
      <NewPreference prefs={prefs} change={change} />
    </fieldset>
  );
}

function Notes({ model, change }: { model: UserContext; change: Change }) {
  const [note, setNote] = useState('');
  return (
    <fieldset class="items">
      <legend>Notes</legend>
      {model.notes.map((n, i) => (
        <div class="item-row" key={i}>
          <div class="field">
            <label for={`note-${i}`}>Note {i + 1}</label>
            <textarea
              id={`note-${i}`}
              rows={2}
              value={n}
              onInput={(e) => change({ notes: withNote(model.notes, i, e.currentTarget.value) })}
            />
          </div>
          <button
            type="button"
            class="secondary"
            onClick={() => change({ notes: withNote(model.notes, i, undefined) })}
          >
            Remove note {i + 1}
          </button>
        </div>
      ))}
      <div class="item-row add-row">
        <div class="field">
          <label for="note-new">New note</label>
          <textarea id="note-new" rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
        </div>
        <button
          type="button"
          disabled={note.trim() === ''}
          onClick={() => (
            change({ notes: withNote(model.notes, model.notes.length, note.trim()) }),
            setNote('')
          )}
        >
          Add note
        </button>
      </div>
    </fieldset>
  );
}

function OtherSections({ model, change }: { model: UserContext; change: Change }) {
  return (
    <>
      {model.blocks.length ? (
        <fieldset>
          <legend>Other sections (kept as written)</legend>
          {model.blocks.map((b, i) => (
            <div class="field" key={i}>
              <label for={`uc-block-${i}`}>
                {b.heading ? `Section ${b.heading}` : 'Text before the first section'}
              </label>
              <textarea
                id={`uc-block-${i}`}
                class="code"
                rows={Math.min(8, b.text.split('\n').length + 1)}
                value={b.text}
                onInput={(e) =>
                  change({
                    blocks: model.blocks.map((x, j) => (j === i ? { ...x, text: e.currentTarget.value } : x)),
                  })
                }
              />
            </div>
          ))}
        </fieldset>
      ) : null}
    </>
  );
}

export function UserContextEditor() {
  const [text, setText] = useState(USER_CONTEXT_TEMPLATE);
  const [pane, setPane] = useState<'form' | 'yaml'>('form');
  const model = parseUserContext(text);
  const change: Change = (c) => setText(serializeUserContext(withModel(model, c), text));
  return (
    <div>
      <div class="row def-toolbar">
        <button
          type="button"
          class="secondary"
          onClick={() => download('user-context.md', text, 'text/markdown')}
        >
          Download
        </button>
      </div>
      <PaneSwitch pane={pane} onPane={setPane} labels={['Form', 'Markdown']} />
      <div class="editor-panes">
        <section class={`pane ${pane === 'form' ? '' : 'pane-off'}`} aria-labelledby="uc-form-title">
          <h2 id="uc-form-title">Form</h2>
          <Preferences model={model} change={change} />
          <div class="field">
            <label for="uc-context">Context</label>
            <textarea
              id="uc-context"
              rows={4}
              value={model.context}
              onInput={(e) => change({ context: e.currentTarget.value })}
            />
          </div>
          <Notes model={model} change={change} />
          <OtherSections model={model} change={change} />
        </section>
        <section class={`pane ${pane === 'yaml' ? '' : 'pane-off'}`} aria-labelledby="uc-md-title">
          <h2 id="uc-md-title">Markdown</h2>
          <label for="user-context-md">User context (markdown): paste or type here</label>
          <textarea
            id="user-context-md"
            class="code"
            rows={24}
            spellcheck={false}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </section>
      </div>
    </div>
  );
}
