// Pieces of the definition tab: the toolbar (open, validate, apply,
// download), the narrow screen's Form/YAML switch, and the errors listed
// beside the YAML, each with a button that selects its line.
import { useState } from 'preact/hooks';
import { Alert } from '../components.tsx';
import type { YamlProblem } from '../definition-form.ts';
import { TEMPLATES } from '../definition-templates.ts';
import { checkAndApply, download, type Outcome } from './definition-actions.ts';
import type { FieldError } from './definition-inputs.tsx';

type Kind = keyof typeof TEMPLATES;

function OpenControls({ onOpen }: { onOpen: (text: string, name: string) => void }) {
  const [kind, setKind] = useState<Kind>('PlatformAgent');
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const pick = (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    file.text().then(
      (t) => (setFailure(undefined), onOpen(t, file.name)),
      () => setFailure(`Could not read ${file.name}.`),
    );
  };
  return (
    <div class="row def-toolbar">
      <div class="field">
        <label for="definition-template">Start from a template</label>
        <span class="row">
          <select
            id="definition-template"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as Kind)}
          >
            {Object.keys(TEMPLATES).map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <button
            type="button"
            class="secondary"
            onClick={() => onOpen(TEMPLATES[kind], `${kind.toLowerCase()}.yaml`)}
          >
            Use template
          </button>
        </span>
      </div>
      <div class="field">
        <label for="definition-file">Open a file</label>
        <input id="definition-file" type="file" accept=".yaml,.yml,.json,text/yaml" onChange={pick} />
      </div>
      <Alert text={failure} />
    </div>
  );
}

function OutcomeView({ outcome, busy, onForce }: { outcome: Outcome; busy: boolean; onForce: () => void }) {
  return (
    <>
      {outcome.words ? (
        <p role="status" data-testid="definition-outcome">
          {outcome.words}
        </p>
      ) : null}
      {outcome.applied?.results
        .filter((r) => r.kind === 'PlatformAgent')
        .map((r) => (
          <p key={r.name}>
            <a href={`#/agents/${encodeURIComponent(`${r.namespace}.${r.name}`)}`}>
              Open agent {r.namespace}.{r.name}
            </a>
          </p>
        ))}
      <Alert text={outcome.failure} id="definition-failure" />
      {outcome.conflict ? (
        <button type="button" class="secondary" disabled={busy} onClick={onForce}>
          Take these fields over and apply
        </button>
      ) : null}
    </>
  );
}

export function DefinitionToolbar(props: {
  text: string;
  fileName: string;
  onOpen: (text: string, name: string) => void;
  onErrors: (errors: FieldError[]) => void;
}) {
  const [namespace, setNamespace] = useState('default');
  const [outcome, setOutcome] = useState<Outcome>({});
  const [busy, setBusy] = useState(false);
  const run = (apply: boolean, force = false) => {
    setBusy(true);
    const target = { text: props.text, namespace, file: props.fileName };
    void checkAndApply(target, { apply, force }, props.onErrors)
      .then(setOutcome)
      .finally(() => setBusy(false));
  };
  return (
    <div class="definition-toolbar">
      <OpenControls onOpen={props.onOpen} />
      <div class="row def-toolbar">
        <div class="field">
          <label for="definition-namespace">Namespace (when the file names none)</label>
          <input
            id="definition-namespace"
            type="text"
            value={namespace}
            onInput={(e) => setNamespace(e.currentTarget.value)}
          />
        </div>
        <button type="button" class="secondary" disabled={busy} onClick={() => run(false)}>
          Validate
        </button>
        <button type="button" disabled={busy} onClick={() => run(true)}>
          Apply
        </button>
        <button
          type="button"
          class="secondary"
          onClick={() => download(props.fileName, props.text, 'text/yaml')}
        >
          Download
        </button>
      </div>
      <OutcomeView outcome={outcome} busy={busy} onForce={() => run(true, true)} />
    </div>
  );
}

export function PaneSwitch({
  pane,
  onPane,
  labels = ['Form', 'YAML'],
}: {
  pane: 'form' | 'yaml';
  onPane: (p: 'form' | 'yaml') => void;
  labels?: [string, string];
}) {
  return (
    <div class="pane-switch" role="group" aria-label="Show">
      {(['form', 'yaml'] as const).map((p) => (
        <button key={p} type="button" class="secondary" aria-pressed={pane === p} onClick={() => onPane(p)}>
          {p === 'form' ? labels[0] : labels[1]}
        </button>
      ))}
    </div>
  );
}

export function YamlErrors(props: {
  problem: YamlProblem | undefined;
  errors: readonly FieldError[];
  onShow: (line: number) => void;
}) {
  const { problem, errors } = props;
  return (
    <div id="yaml-errors" aria-live="polite">
      {problem ? (
        <p class="error" data-testid="yaml-problem">
          Line {problem.line}, column {problem.column}: {problem.message}{' '}
          <button type="button" class="link" onClick={() => props.onShow(problem.line)}>
            Show line {problem.line}
          </button>
        </p>
      ) : null}
      {errors.length ? (
        <ul class="yaml-errors" data-testid="yaml-errors">
          {errors.map((e) => (
            <li key={e.text} class="error">
              <button type="button" class="link" onClick={() => props.onShow(e.line)}>
                Line {e.line}, column {e.column}
              </button>
              : {e.path ? `${e.path}: ` : ''}
              {e.message}
              {e.text.includes('(expected') ? ` ${e.text.slice(e.text.indexOf('(expected'))}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
