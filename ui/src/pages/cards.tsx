// The cards of the approvals page: an approval request for a high-risk
// action (Approve / Deny, Owners only: the API lists only what the caller may
// decide) and a consent card (Allow / Deny / Customize). Once resolved, a
// card is read-only and says what was decided.
import { useState } from 'preact/hooks';
import { agentPath, announceChange, call } from '../api.ts';
import { Alert } from '../components.tsx';
import { describeError } from '../errors.ts';
import { approvalTitle, relativeTime, ttlProblem } from '../model.ts';

export interface ApprovalView {
  id: string;
  agent_id: string;
  action: string;
  target: string;
  description?: string | null;
  phase: string;
  requested_by?: string | null;
  expires_at?: string | null;
  decided_by?: string | null;
}

export interface ConsentView {
  id: string;
  agent_id: string;
  user: string;
  service: string;
  scopes: string[];
  ttl: string | null;
  reason: string | null;
  phase: string;
  expires_at: string | null;
}

const PHASE_WORDS: Record<string, string> = { approved: 'Approved', denied: 'Denied', expired: 'Expired' };

function outcomeOf(a: ApprovalView, result: string | undefined): string {
  const by = a.decided_by ? ` by ${a.decided_by}` : '';
  return `${PHASE_WORDS[a.phase] ?? a.phase}${by}${result ? `: ${result}` : ''}.`;
}

export function ApprovalCard({ initial }: { initial: ApprovalView }) {
  const [a, setA] = useState(initial);
  const [result, setResult] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const decide = async (verdict: 'approve' | 'deny') => {
    try {
      const r = await call<{ approval: ApprovalView; result: string }>(
        'POST',
        `/v1/approvals/${a.id}/${verdict}`,
      );
      setA(r.approval);
      setResult(r.result);
      setError(undefined);
      announceChange();
    } catch (e) {
      setError(describeError(e));
    }
  };
  const done = a.phase !== 'pending';
  return (
    <article
      class={`card request ${done ? 'resolved' : ''}`}
      aria-labelledby={`ap-${a.id}`}
      data-testid="approval-card"
    >
      <h3 id={`ap-${a.id}`}>{approvalTitle(a.action, a.target)}</h3>
      <p>
        Agent <a href={`#/agents/${encodeURIComponent(a.agent_id)}`}>{a.agent_id}</a>, asked by{' '}
        {a.requested_by ?? 'unknown'}
        {a.expires_at ? `; expires ${relativeTime(a.expires_at, Date.now())}` : ''}.
      </p>
      {a.description ? <p>{a.description}</p> : null}
      <Alert text={error} />
      {done ? (
        <p class="outcome" role="status">
          {outcomeOf(a, result)}
        </p>
      ) : (
        <div class="actions">
          <button type="button" onClick={() => void decide('approve')}>
            Approve
          </button>
          <button type="button" class="danger" onClick={() => void decide('deny')}>
            Deny
          </button>
        </div>
      )}
    </article>
  );
}

function Customize({
  consent,
  onAllow,
}: {
  consent: ConsentView;
  onAllow: (scopes: string[], ttl: string) => Promise<string | undefined>;
}) {
  const [scopes, setScopes] = useState(consent.scopes);
  const [ttl, setTtl] = useState(consent.ttl ?? '1h');
  const [error, setError] = useState<string | undefined>(undefined);
  const toggle = (s: string) =>
    setScopes((cur) => (cur.includes(s) ? cur.filter((x) => x !== s) : [...cur, s]));
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = scopes.length === 0 ? 'Keep at least one scope.' : ttlProblem(ttl);
    setError(problem ?? (await onAllow(scopes, ttl.trim())));
  };
  const errId = `cz-err-${consent.id}`;
  return (
    <form class="customize" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset>
        <legend>Scopes to grant</legend>
        {consent.scopes.map((s) => (
          <label key={s} class="check">
            <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
          </label>
        ))}
      </fieldset>
      <label for={`ttl-${consent.id}`}>For how long</label>
      <input
        id={`ttl-${consent.id}`}
        value={ttl}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? errId : undefined}
        onInput={(e) => setTtl(e.currentTarget.value)}
      />
      <Alert text={error} id={errId} />
      <button type="submit">Allow with these terms</button>
    </form>
  );
}

/** Allow (as asked or customized) and Deny of one consent: the outcome in words, or the error. */
function useConsent(c: ConsentView) {
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const attempt = async (f: () => Promise<string>): Promise<string | undefined> => {
    try {
      setOutcome(await f());
      setError(undefined);
      announceChange();
      return undefined;
    } catch (e) {
      return describeError(e);
    }
  };
  const allow = (scopes?: string[], ttl?: string) =>
    attempt(async () => {
      const body = { consent_id: c.id, ...(scopes ? { scopes, ttl } : {}) };
      const g = await call<GrantTerms>('POST', agentPath(c.agent_id, '/delegations'), body);
      return `Allowed ${g.scopes.join(', ')} until ${new Date(g.expires_at).toLocaleString()}`;
    });
  const deny = () =>
    attempt(async () => {
      await call('POST', agentPath(c.agent_id, `/delegations/pending/${c.id}/deny`));
      return 'Denied';
    });
  return { outcome, error, setError, allow, deny };
}

interface GrantTerms {
  expires_at: string;
  scopes: string[];
}

export function ConsentCard({ initial: c }: { initial: ConsentView }) {
  const { outcome, error, setError, allow, deny } = useConsent(c);
  const [customizing, setCustomizing] = useState(false);
  return (
    <article
      class={`card consent ${outcome ? 'resolved' : ''}`}
      aria-labelledby={`cs-${c.id}`}
      data-testid="consent-card"
    >
      <h3 id={`cs-${c.id}`}>
        {c.agent_id} asks to act for you at {c.service}
      </h3>
      <p>
        Scopes: {c.scopes.join(', ')}; for {c.ttl ?? 'the default time'}.
        {c.reason ? ` Reason: ${c.reason}` : ''}
      </p>
      <Alert text={error} />
      {outcome ? (
        <p class="outcome" role="status">
          {outcome}.
        </p>
      ) : (
        <div class="actions">
          <button type="button" onClick={() => void allow().then(setError)}>
            Allow
          </button>
          <button type="button" class="danger" onClick={() => void deny().then(setError)}>
            Deny
          </button>
          <button
            type="button"
            class="secondary"
            aria-expanded={customizing}
            onClick={() => setCustomizing(!customizing)}
          >
            Customize
          </button>
        </div>
      )}
      {customizing && !outcome ? <Customize consent={c} onAllow={allow} /> : null}
    </article>
  );
}
