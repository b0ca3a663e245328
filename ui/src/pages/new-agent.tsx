// The creation wizard: 1. the agent (namespace, name, workspace, model; the
// signed-in person is its Owner), created with POST /v1/agents; 2. its tools:
// the catalog as the new agent sees it, where the scoped tool cascade hides
// blocked tools and pre-selects required ones (they cannot be unselected);
// 3. done, with what was installed. A refusal is shown beside the field or
// tool it concerns; nothing typed is lost.
import { useState } from 'preact/hooks';
import { agentPath, announceChange, call, get } from '../api.ts';
import { Alert } from '../components.tsx';
import { agentNameProblem } from '../catalog-model.ts';
import { ApiError, describeError } from '../errors.ts';
import type { Whoami } from '../model.ts';
import { hrefOf, settingsHref } from '../route.ts';
import { ToolStep } from './wizard-tools.tsx';

interface Basics {
  namespace: string;
  name: string;
  workspace: string;
  model: string;
}

const STEPS = ['The agent', 'Tools', 'Done'];

function Steps({ at }: { at: number }) {
  return (
    <ol class="steps" aria-label="Steps">
      {STEPS.map((s, i) => (
        <li key={s} aria-current={i === at ? 'step' : undefined} class={i === at ? 'current' : ''}>
          {s}
        </li>
      ))}
    </ol>
  );
}

const specOf = (b: Basics, who: Whoami) => ({
  owners: [{ subject: who.subject, role: 'Owner' }],
  ...(b.workspace ? { workspace: b.workspace } : {}),
  ...(b.model ? { model: { id: b.model } } : {}),
});

/** Until the API's cache has the new agent (its install routes read it from there). */
async function untilVisible(id: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    try {
      await get(agentPath(id));
      return;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

function Input({
  id,
  label,
  value,
  error,
  hint,
  onInput,
}: {
  id: keyof Basics;
  label: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  onInput: (v: string) => void;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <p class="field">
      <label for={`new-${id}`}>{label}</label>
      <input
        id={`new-${id}`}
        value={value}
        autoComplete="off"
        aria-invalid={!!error}
        aria-describedby={described || undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {hint ? (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} class="error field-error" role="alert">
          {error}
        </span>
      ) : null}
    </p>
  );
}

function BasicsStep({ who, onCreated }: { who: Whoami; onCreated: (id: string) => void }) {
  const [b, setB] = useState<Basics>({
    namespace: who.workspace_admin_of[0] ?? '',
    name: '',
    workspace: '',
    model: '',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof Basics | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof Basics) => (v: string) => setB({ ...b, [k]: v.trim() });
  const submit = async (e: Event) => {
    e.preventDefault();
    const nameProblem = agentNameProblem(b.name);
    const nsProblem = agentNameProblem(b.namespace);
    if (nameProblem || nsProblem)
      return setErrors({ name: nameProblem || undefined, namespace: nsProblem || undefined });
    setBusy(true);
    try {
      await call('POST', '/v1/agents', { namespace: b.namespace, name: b.name, spec: specOf(b, who) });
      const id = `${b.namespace}.${b.name}`;
      await untilVisible(id);
      announceChange();
      onCreated(id);
    } catch (err) {
      const words = describeError(err);
      setErrors(err instanceof ApiError && err.status === 409 ? { name: words } : { form: words });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" aria-labelledby="basics-title" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="basics-title">The agent</h2>
      <Input
        id="namespace"
        label="Namespace"
        value={b.namespace}
        error={errors.namespace}
        onInput={set('namespace')}
      />
      <Input id="name" label="Name" value={b.name} error={errors.name} onInput={set('name')} />
      <Input
        id="workspace"
        label="Workspace (optional)"
        value={b.workspace}
        hint="Its organization's and workspace's tool rules apply to the agent."
        onInput={set('workspace')}
      />
      <Input id="model" label="Model (optional)" value={b.model} onInput={set('model')} />
      <p>
        Owner: <strong>{who.subject}</strong> (you). Share it with others from its page.
      </p>
      <Alert text={errors.form} />
      <button type="submit" disabled={busy}>
        Create and choose tools
      </button>
    </form>
  );
}

function DoneStep({ id, installed }: { id: string; installed: string[] }) {
  return (
    <section class="card" aria-labelledby="done-title" data-testid="wizard-done">
      <h2 id="done-title">{id} is created</h2>
      <p role="status">
        {installed.length === 0 ? 'No app installed.' : `Installed: ${installed.join(', ')}.`}
      </p>
      <p>
        <a href={hrefOf({ page: 'agent', id })}>Open the agent</a> ·{' '}
        <a href={settingsHref({ scope: 'agent', agent_id: id })}>Its auditor settings</a>
      </p>
    </section>
  );
}

export function NewAgentPage({ who }: { who: Whoami }) {
  const [agentId, setAgentId] = useState<string | undefined>(undefined);
  const [installed, setInstalled] = useState<string[] | undefined>(undefined);
  const at = !agentId ? 0 : !installed ? 1 : 2;
  return (
    <section aria-labelledby="new-title">
      <p class="crumbs">
        <a href="#/agents">Agents</a> / new
      </p>
      <h1 id="new-title">New agent</h1>
      <Steps at={at} />
      {at === 0 ? <BasicsStep who={who} onCreated={setAgentId} /> : null}
      {at === 1 && agentId ? <ToolStep agentId={agentId} onDone={setInstalled} /> : null}
      {at === 2 && agentId ? <DoneStep id={agentId} installed={installed ?? []} /> : null}
    </section>
  );
}
