// Connect a credential at an org or workspace tier: by API key (a password
// field, cleared after success; the answer never holds it) or, when the
// server offers it, by OAuth sign-in in a popup. A refusal is shown beside
// the field it concerns (a 409 credential_enforced beside the service), and
// nothing typed is lost.
import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { Alert } from '../components.tsx';
import {
  connectBody,
  connectProblems,
  fieldOfError,
  type ConnectDraft,
  type DraftProblems,
  type SharingMode,
  type Tier,
} from '../credentials-model.ts';
import { ApiError, describeError } from '../errors.ts';
import { useOAuthFlow, type Provider } from './oauth-flow.ts';

const START_PATH = '/v1/scoped-credentials/oauth/start';
const EMPTY: ConnectDraft = { service: '', sharing_mode: 'inherit', destinations: '', material: '' };
type Method = 'api_key' | 'oauth';

function Field(props: {
  id: string;
  label: string;
  error: string | undefined;
  hint?: string;
  children: (aria: Record<string, string | undefined>) => preact.ComponentChildren;
}) {
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <p class="field">
      <label for={props.id}>{props.label}</label>
      {props.children({
        'aria-invalid': props.error ? 'true' : undefined,
        'aria-describedby': described || undefined,
      })}
      {props.hint ? (
        <span id={`${props.id}-hint`} class="hint">
          {props.hint}
        </span>
      ) : null}
      {props.error ? (
        <span id={`${props.id}-error`} class="field-error error" role="alert">
          {props.error}
        </span>
      ) : null}
    </p>
  );
}

function ServiceField(p: {
  method: Method;
  providers: Provider[];
  value: string;
  error: string | undefined;
  set: (v: string) => void;
}) {
  return (
    <Field id="connect-service" label="Service" error={p.error}>
      {(aria) =>
        p.method === 'oauth' ? (
          <select
            id="connect-service"
            value={p.value}
            onChange={(e) => p.set(e.currentTarget.value)}
            {...aria}
          >
            <option value="">Choose a provider</option>
            {p.providers.map((x) => (
              <option key={x.service} value={x.service}>
                {x.display_name}
              </option>
            ))}
          </select>
        ) : (
          <input
            id="connect-service"
            autoComplete="off"
            value={p.value}
            onInput={(e) => p.set(e.currentTarget.value)}
            {...aria}
          />
        )
      }
    </Field>
  );
}

function MethodChoice({ method, set }: { method: Method; set: (m: Method) => void }) {
  return (
    <fieldset class="choices">
      <legend>How</legend>
      <label class="inline">
        <input type="radio" name="method" checked={method === 'api_key'} onChange={() => set('api_key')} />{' '}
        API key
      </label>
      <label class="inline">
        <input type="radio" name="method" checked={method === 'oauth'} onChange={() => set('oauth')} /> Sign
        in with the provider (OAuth)
      </label>
    </fieldset>
  );
}

function useConnect(tier: Tier, onConnected: (note: string) => void) {
  const [draft, setDraft] = useState<ConnectDraft>(EMPTY);
  const [problems, setProblems] = useState<DraftProblems>({});
  const [general, setGeneral] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const oauth = useOAuthFlow((service) => {
    setDraft(EMPTY);
    onConnected(`${service} is connected.`);
  });
  const refused = (err: unknown) => {
    const words = describeError(err);
    const field = err instanceof ApiError ? fieldOfError(err.code, err.detail) : undefined;
    if (field) setProblems({ [field]: words });
    else setGeneral(words);
  };
  const submit = async (method: Method) => {
    setGeneral(undefined);
    const found = connectProblems(draft, method === 'api_key');
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (method === 'oauth') {
        const body = connectBody(tier, draft, false);
        const failed = await oauth.start(START_PATH, body, draft.service.trim());
        if (failed) setGeneral(failed);
        return;
      }
      await call('POST', '/v1/scoped-credentials', connectBody(tier, draft, true));
      setDraft(EMPTY);
      onConnected(`${draft.service.trim()} is connected.`);
    } catch (err) {
      refused(err);
    } finally {
      setBusy(false);
    }
  };
  const set = (k: keyof ConnectDraft) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  return { draft, problems, general, busy, oauth, submit, set };
}

function TextField(p: {
  id: string;
  label: string;
  hint: string;
  error: string | undefined;
  value: string;
  set: (v: string) => void;
  password?: boolean;
}) {
  return (
    <Field id={p.id} label={p.label} hint={p.hint} error={p.error}>
      {(aria) => {
        const common = {
          id: p.id,
          autoComplete: 'off',
          value: p.value,
          onInput: (e: { currentTarget: HTMLInputElement }) => p.set(e.currentTarget.value),
          ...aria,
        };
        return p.password ? <input type="password" {...common} /> : <input type="text" {...common} />;
      }}
    </Field>
  );
}

function DraftFields(p: {
  how: Method;
  draft: ConnectDraft;
  problems: DraftProblems;
  set: (k: keyof ConnectDraft) => (v: string) => void;
}) {
  const c = { draft: p.draft, problems: p.problems, set: p.set };
  const how = p.how;
  return (
    <>
      <Field id="connect-sharing" label="Sharing" error={c.problems.sharing_mode}>
        {(aria) => (
          <select
            id="connect-sharing"
            value={c.draft.sharing_mode}
            onChange={(e) => c.set('sharing_mode')(e.currentTarget.value as SharingMode)}
            {...aria}
          >
            <option value="inherit">Shared: lower tiers inherit it</option>
            <option value="enforce">Enforced: lower tiers must use it</option>
            <option value="isolated">Isolated: never reaches an agent</option>
          </select>
        )}
      </Field>
      <TextField
        id="connect-destinations"
        label="Destinations (optional)"
        hint="Host names the credential may be sent to, separated by commas or spaces."
        error={c.problems.destinations}
        value={c.draft.destinations}
        set={c.set('destinations')}
      />
      {how === 'api_key' ? (
        <TextField
          id="connect-material"
          label="API key"
          hint="Stored encrypted; never shown again."
          error={c.problems.material}
          value={c.draft.material}
          set={c.set('material')}
          password
        />
      ) : null}
    </>
  );
}

export function ConnectForm({
  tier,
  providers,
  onConnected,
}: {
  tier: Tier;
  /** The services the server connects by OAuth ([] hides the choice). */
  providers: Provider[];
  onConnected: (note: string) => void;
}) {
  const [method, setMethod] = useState<Method>('api_key');
  const c = useConnect(tier, onConnected);
  const how: Method = providers.length > 0 ? method : 'api_key';
  return (
    <form
      class="card connect"
      aria-labelledby="connect-title"
      onSubmit={(e) => (e.preventDefault(), void c.submit(how))}
    >
      <h3 id="connect-title">Connect a credential</h3>
      {providers.length > 0 ? <MethodChoice method={how} set={setMethod} /> : null}
      <ServiceField
        method={how}
        providers={providers}
        value={c.draft.service}
        error={c.problems.service}
        set={c.set('service')}
      />
      <DraftFields how={how} draft={c.draft} problems={c.problems} set={c.set} />
      <Alert text={c.general} />
      <OAuthProgress flow={c.oauth.flow} />
      <button type="submit" disabled={c.busy || c.oauth.flow.phase === 'waiting'}>
        {how === 'oauth' ? 'Sign in and connect' : 'Connect'}
      </button>
    </form>
  );
}

/** Where a sign-in stands: waiting for the popup, blocked (with the link), or refused. */
export function OAuthProgress({ flow }: { flow: ReturnType<typeof useOAuthFlow>['flow'] }) {
  // Done: the page's note above the list says it.
  if (flow.phase === 'idle' || flow.phase === 'done') return null;
  if (flow.phase === 'error') return <Alert text={flow.words} />;
  return (
    <div role="status" class="notice" data-testid="oauth-status">
      <p>{flow.words}</p>
      {flow.phase === 'blocked' && flow.url ? (
        <p>
          <a href={flow.url} target="platform-oauth" rel="opener">
            Open the sign-in window
          </a>
        </p>
      ) : null}
    </div>
  );
}
