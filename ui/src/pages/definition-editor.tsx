// The definition tab: open a file (paste, pick, or a template), edit it in
// the form or as YAML side by side (tabs on a narrow screen), validate and
// apply it through the facade, download it. The YAML text is the one source
// of truth; the form is its model, and a form edit is a minimal text edit.
import { useRef, useState } from 'preact/hooks';
import type { Ref } from 'preact';
import { serializeDefinitionModel, type DefinitionModel } from '../../../crds/definitions/model.ts';
import {
  editDefinition,
  lineRange,
  readDefinition,
  textValue,
  type YamlProblem,
} from '../definition-form.ts';
import { TEMPLATES } from '../definition-templates.ts';
import { DefinitionForm } from './definition-form-view.tsx';
import { DefinitionToolbar, PaneSwitch, YamlErrors } from './definition-parts.tsx';
import type { FieldError } from './definition-inputs.tsx';

const EMPTY: DefinitionModel = { sections: {}, blocks: [] };

export interface EditorState {
  text: string;
  model: DefinitionModel;
  problem: YamlProblem | undefined;
}

export function stateOf(text: string, last: DefinitionModel): EditorState {
  const r = readDefinition(text);
  return 'model' in r
    ? { text, model: r.model, problem: undefined }
    : { text, model: last, problem: r.problem };
}

export function DefinitionEditor() {
  const [state, setState] = useState<EditorState>(() => stateOf(TEMPLATES.PlatformAgent, EMPTY));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [pane, setPane] = useState<'form' | 'yaml'>('form');
  const [fileName, setFileName] = useState('definition.yaml');
  const yaml = useRef<HTMLTextAreaElement>(null);
  const setText = (text: string) => {
    setState((s) => stateOf(text, s.model));
    setErrors([]);
  };
  const edit = (path: (string | number)[], value: unknown) => {
    if (state.problem) return;
    const v = typeof value === 'string' ? textValue(state.model, path, value) : value;
    if (v === undefined && typeof value === 'string') return;
    setText(editDefinition(state.text, state.model, path, v));
  };
  const replace = (sections: Record<string, unknown>) =>
    !state.problem && setText(serializeDefinitionModel({ ...state.model, sections }, state.text));
  const editBlock = (key: string, text: string) => {
    if (state.problem) return;
    const blocks = state.model.blocks.map((b) => (b.key === key ? { key, text } : b));
    setText(serializeDefinitionModel({ ...state.model, blocks }, state.text));
  };
  const showLine = (line: number) => {
    setPane('yaml');
    requestAnimationFrame(() => {
      const [start, end] = lineRange(state.text, line);
      yaml.current?.focus();
      yaml.current?.setSelectionRange(start, end);
    });
  };
  return (
    <div>
      <DefinitionToolbar
        text={state.text}
        fileName={fileName}
        onOpen={(text, name) => (setText(text), setFileName(name))}
        onErrors={setErrors}
      />
      <PaneSwitch pane={pane} onPane={setPane} />
      <div class="editor-panes">
        <FormPane
          hidden={pane !== 'form'}
          state={state}
          errors={errors}
          edits={{ edit, replace, editBlock }}
        />
        <YamlPane
          hidden={pane !== 'yaml'}
          text={state.text}
          problem={state.problem}
          errors={errors}
          onText={setText}
          onShow={showLine}
          area={yaml}
        />
      </div>
    </div>
  );
}

interface Edits {
  edit: (path: (string | number)[], value: unknown) => void;
  replace: (sections: Record<string, unknown>) => void;
  editBlock: (key: string, text: string) => void;
}

function FormPane(p: { hidden: boolean; state: EditorState; errors: FieldError[]; edits: Edits }) {
  const { state } = p;
  return (
    <section class={`pane ${p.hidden ? 'pane-off' : ''}`} aria-labelledby="form-title">
      <h2 id="form-title">Form</h2>
      {state.problem ? (
        <p class="error" role="alert" data-testid="form-problem">
          The YAML does not parse at line {state.problem.line}, column {state.problem.column}:{' '}
          {state.problem.message}. The form keeps its last values; fix the YAML to edit here again.
        </p>
      ) : null}
      <fieldset class="plain" disabled={state.problem !== undefined}>
        <legend class="visually-hidden">The definition as a form</legend>
        <DefinitionForm model={state.model} errors={p.errors} {...p.edits} />
      </fieldset>
    </section>
  );
}

function YamlPane(p: {
  hidden: boolean;
  text: string;
  problem: YamlProblem | undefined;
  errors: FieldError[];
  onText: (text: string) => void;
  onShow: (line: number) => void;
  area: Ref<HTMLTextAreaElement>;
}) {
  return (
    <section class={`pane ${p.hidden ? 'pane-off' : ''}`} aria-labelledby="yaml-title">
      <h2 id="yaml-title">YAML</h2>
      <label for="definition-yaml">Definition file (YAML): paste or type here</label>
      <textarea
        id="definition-yaml"
        ref={p.area}
        class="code"
        rows={30}
        spellcheck={false}
        value={p.text}
        aria-describedby="yaml-errors"
        onInput={(e) => p.onText(e.currentTarget.value)}
      />
      <YamlErrors problem={p.problem} errors={p.errors} onShow={p.onShow} />
    </section>
  );
}
