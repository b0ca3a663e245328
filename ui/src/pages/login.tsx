// Sign in with an API key: checked against GET /v1/whoami, then kept in
// sessionStorage for this tab only. What was typed stays on a failure.
import { useState } from 'preact/hooks';
import { call, type Session } from '../api.ts';
import { Alert } from '../components.tsx';
import { ApiError, describeError } from '../errors.ts';
import type { Whoami } from '../model.ts';

export function LoginPage({
  notice,
  onSignedIn,
}: {
  notice?: string | undefined;
  onSignedIn: (s: Session) => void;
}) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const token = key.trim();
    if (!token) return setError('Enter your API key.');
    setBusy(true);
    try {
      const who = await call<Whoami>('GET', '/v1/whoami', undefined, token);
      onSignedIn({ key: token, who });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? 'That key was not accepted. Check it and try again.'
          : describeError(err),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="login" class="login">
      <h1>Sign in to Agent Platform</h1>
      {notice ? (
        <p class="notice" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'login-error' : 'login-help'}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p id="login-help" class="help">
          Use a key from <code>platform login</code> or your administrator. It is kept for this tab only.
        </p>
        <Alert text={error} id="login-error" />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
