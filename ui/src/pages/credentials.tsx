// Credentials and tools per tier (#/credentials/<tier>/...): at an org or
// workspace tier the credentials it holds (connect, rotate or reconnect, revoke) and its
// tool rulings; at an agent the cascade resolved for it: which credential
// applies per service and where from, what is withheld and why, and each
// tool's state with the tier it comes from.
import { useState } from 'preact/hooks';
import { get } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import {
  canWriteTier,
  placeWords,
  tierQuery,
  withheldWords,
  type CredentialView,
  type EffectiveCredentials,
  type Tier,
} from '../credentials-model.ts';
import { useLoad } from '../hooks.ts';
import type { ScopesView } from '../scopes-model.ts';
import { credentialsHref, settingsHref } from '../route.ts';
import { CredentialCard, CredentialFacts } from './credential-card.tsx';
import { ConnectForm } from './credential-connect.tsx';
import { useOAuthProviders } from './oauth-flow.ts';
import { targetWords } from './settings.tsx';
import { ScopePicker } from './scope-picker.tsx';
import { EffectiveTools, TierTools } from './tool-policy.tsx';
import '../credentials.css';

function TierCredentials({ tier, readOnly }: { tier: Tier; readOnly: boolean }) {
  const q = tierQuery(tier);
  const creds = useLoad(() => get<{ items: CredentialView[] }>(`/v1/scoped-credentials?${q}`), [q]);
  const providers = useOAuthProviders();
  const oauthServices = new Set(providers.map((p) => p.service));
  const [note, setNote] = useState<string | undefined>(undefined);
  const changed = (words: string) => {
    setNote(words);
    creds.reload();
  };
  if (!creds.data)
    return creds.error ? <Alert text={creds.error} /> : <Status text="Loading the credentials…" />;
  return (
    <>
      <p role="status" class="notice" hidden={!note}>
        {note}
      </p>
      {creds.data.items.length === 0 ? <p>This tier holds no credential yet.</p> : null}
      <ul class="grid plain" aria-label="Credentials held at this tier">
        {creds.data.items.map((c) => (
          <CredentialCard
            key={`${c.id}:${c.last_rotated_at ?? ''}`}
            c={c}
            onChanged={changed}
            readOnly={readOnly}
            reconnectable={oauthServices.has(c.service)}
          />
        ))}
      </ul>
      {readOnly ? null : <ConnectForm tier={tier} providers={providers} onConnected={changed} />}
    </>
  );
}

const tierLink = (c: CredentialView) =>
  credentialsHref(
    c.scope === 'org'
      ? { scope: 'org', organization: c.scope_id }
      : {
          scope: 'workspace',
          namespace: c.scope_id.split('.')[0]!,
          workspace: c.scope_id.split('.').slice(1).join('.'),
        },
  );

function EffectiveCredentialsView({ agentId }: { agentId: string }) {
  const eff = useLoad(
    () =>
      get<EffectiveCredentials>(`/v1/scoped-credentials/effective?agent_id=${encodeURIComponent(agentId)}`),
    [agentId],
  );
  if (!eff.data) return eff.error ? <Alert text={eff.error} /> : <Status text="Loading the credentials…" />;
  return (
    <>
      {eff.data.items.length === 0 ? (
        <p>No credential of its organization or workspace reaches this agent.</p>
      ) : null}
      <ul class="grid plain" aria-label="Credentials in effect">
        {eff.data.items.map((e) => (
          <li key={e.service} class="card" data-testid="effective-credential" data-service={e.service}>
            <h3>{e.service}</h3>
            <p class="from">
              From the{' '}
              <a href={tierLink(e.credential)}>{placeWords(e.credential.scope, e.credential.scope_id)}</a>
              {e.enforced ? ', enforced' : ''}
            </p>
            <CredentialFacts c={e.credential} />
          </li>
        ))}
      </ul>
      {eff.data.withheld.length > 0 ? (
        <>
          <h3>Withheld</h3>
          <ul class="plain withheld" aria-label="Withheld credentials">
            {eff.data.withheld.map((w) => (
              <li key={w.credential.id} data-testid="withheld-credential" data-service={w.credential.service}>
                <strong>{w.credential.service}</strong> of the{' '}
                {placeWords(w.credential.scope, w.credential.scope_id)}: not used, because{' '}
                {withheldWords(w.reason)}.
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

export function CredentialsPage({ target }: { target?: Tier | undefined }) {
  const scopes = useLoad(() => get<ScopesView>('/v1/scopes'), []);
  const readOnly = target !== undefined && canWriteTier(scopes.data, target) === false;
  return (
    <section aria-labelledby="creds-title">
      <h1 id="creds-title">Credentials and tools</h1>
      {!target ? (
        <ScopePicker
          title="Which tier?"
          submitLabel="Open"
          onPick={(t) => (location.hash = credentialsHref(t))}
        />
      ) : (
        <>
          <p class="crumbs">
            Of the {targetWords(target)} · <a href={settingsHref(target)}>Auditor settings</a> ·{' '}
            <a href="#/credentials">Choose another tier</a>
          </p>
          {readOnly ? (
            <p class="notice" data-testid="read-only">
              Read only: you may see this tier but not change it.
            </p>
          ) : null}
          <section aria-labelledby="creds-section">
            <h2 id="creds-section">{target.scope === 'agent' ? 'Credentials in effect' : 'Credentials'}</h2>
            {target.scope === 'agent' ? (
              <EffectiveCredentialsView agentId={target.agent_id} />
            ) : (
              <TierCredentials tier={target} readOnly={readOnly} />
            )}
          </section>
          <section aria-labelledby="tools-section">
            <h2 id="tools-section">{target.scope === 'agent' ? 'Tools in effect' : 'Tools'}</h2>
            {target.scope === 'agent' ? (
              <EffectiveTools agentId={target.agent_id} />
            ) : (
              <TierTools tier={target} readOnly={readOnly} />
            )}
          </section>
        </>
      )}
    </section>
  );
}
