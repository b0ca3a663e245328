// One credential of a tier: service, type, sharing mode, destinations and auth
// status; Rotate (new material in a password field, cleared after success),
// or Reconnect (a new OAuth sign-in) for an OAuth credential whose service the
// server signs in to; and Revoke (asks first). A refusal is shown on the card in words.
import { useState } from 'preact/hooks';
import { call } from '../api.ts';
import { Alert } from '../components.tsx';
import {
  authWords,
  placeWords,
  sharingWords,
  TYPE_WORDS,
  type CredentialView,
} from '../credentials-model.ts';
import { describeError } from '../errors.ts';
import { OAuthProgress } from './credential-connect.tsx';
import { useOAuthFlow } from './oauth-flow.ts';

const enc = encodeURIComponent;
const dateWords = (t: string | null): string => (t ? new Date(t).toLocaleString() : 'never');

export function CredentialFacts({ c }: { c: CredentialView }) {
  return (
    <dl class="facts">
      <div>
        <dt>Type</dt>
        <dd>{TYPE_WORDS[c.type] ?? c.type}</dd>
      </div>
      <div>
        <dt>Sharing</dt>
        <dd>{sharingWords(c.sharing_mode)}</dd>
      </div>
      <div>
        <dt>Destinations</dt>
        <dd>{c.destinations.length > 0 ? c.destinations.join(', ') : 'any host of the service'}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd class={`auth auth-${c.auth_status}`} data-testid="auth-status">
          {authWords(c.auth_status)}
        </dd>
      </div>
      <div>
        <dt>Held by</dt>
        <dd>{placeWords(c.scope, c.scope_id)}</dd>
      </div>
      <div>
        <dt>Last rotated</dt>
        <dd>{dateWords(c.last_rotated_at)}</dd>
      </div>
    </dl>
  );
}

function RotateForm({ c, onDone }: { c: CredentialView; onDone: (saved: boolean) => void }) {
  const [material, setMaterial] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const field = `rotate-${c.id}`;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (material === '') return setError('Enter the new API key.');
    setBusy(true);
    try {
      await call('POST', `/v1/scoped-credentials/${enc(c.id)}/rotate`, { material });
      setMaterial('');
      onDone(true);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={(e) => void submit(e)}>
      <p class="field">
        <label for={field}>New key for {c.service}</label>
        <input
          id={field}
          type="password"
          autoComplete="off"
          value={material}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${field}-error` : undefined}
          onInput={(e) => setMaterial(e.currentTarget.value)}
        />
      </p>
      <Alert text={error} id={`${field}-error`} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save new key
        </button>
        <button type="button" class="secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function RevokeConfirm({ c, onDone }: { c: CredentialView; onDone: (revoked: boolean) => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const revoke = async () => {
    setBusy(true);
    try {
      await call('DELETE', `/v1/scoped-credentials/${enc(c.id)}`);
      onDone(true);
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };
  return (
    <div class="confirm" role="group" aria-label={`Revoke ${c.service}?`}>
      <p class="warn">
        Revoke the {c.service} credential? It and its secret are deleted; agents that use it lose it.
      </p>
      <Alert text={error} />
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={() => void revoke()}>
          Yes, revoke {c.service}
        </button>
        <button type="button" class="secondary" onClick={() => onDone(false)}>
          Keep it
        </button>
      </div>
    </div>
  );
}

/** An OAuth credential whose service the server signs in to: Reconnect instead of pasting a token. */
function ReconnectButton({ c, onChanged }: { c: CredentialView; onChanged: (note: string) => void }) {
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const oauth = useOAuthFlow((service) => onChanged(`${service} is reconnected.`));
  const reconnect = async () => {
    setRefusal(undefined);
    setRefusal(await oauth.start(`/v1/scoped-credentials/${enc(c.id)}/reconnect`, undefined, c.service));
  };
  return (
    <>
      <Alert text={refusal} />
      <OAuthProgress flow={oauth.flow} />
      <button
        type="button"
        class="secondary"
        disabled={oauth.flow.phase === 'waiting'}
        onClick={() => void reconnect()}
      >
        Reconnect<span class="visually-hidden"> {c.service}</span>
      </button>
    </>
  );
}

export function CredentialCard({
  c,
  onChanged,
  readOnly,
  reconnectable,
}: {
  c: CredentialView;
  onChanged: (note: string) => void;
  readOnly: boolean;
  /** An OAuth credential whose service has a provider: renewed by sign-in, not by a pasted token. */
  reconnectable: boolean;
}) {
  const [mode, setMode] = useState<'view' | 'rotate' | 'revoke'>('view');
  const title = `cred-${c.id}`;
  const byOAuth = reconnectable && c.type !== 'api_key';
  return (
    <li class="card" aria-labelledby={title} data-testid="credential" data-service={c.service}>
      <h3 id={title}>{c.service}</h3>
      <CredentialFacts c={c} />
      {mode === 'rotate' ? (
        <RotateForm
          c={c}
          onDone={(saved) => {
            setMode('view');
            if (saved) onChanged(`The ${c.service} key was rotated.`);
          }}
        />
      ) : null}
      {mode === 'revoke' ? (
        <RevokeConfirm
          c={c}
          onDone={(revoked) => {
            setMode('view');
            if (revoked) onChanged(`The ${c.service} credential was revoked.`);
          }}
        />
      ) : null}
      {mode === 'view' && !readOnly ? (
        <div class="actions">
          {byOAuth ? (
            <ReconnectButton c={c} onChanged={onChanged} />
          ) : (
            <button type="button" class="secondary" onClick={() => setMode('rotate')}>
              Rotate<span class="visually-hidden"> {c.service}</span>
            </button>
          )}
          <button type="button" class="danger" onClick={() => setMode('revoke')}>
            Revoke<span class="visually-hidden"> {c.service}</span>
          </button>
        </div>
      ) : null}
    </li>
  );
}
