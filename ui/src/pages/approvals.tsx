// The approvals page. Pending: approval requests the caller may decide and
// the consent requests waiting for the caller's answer, as cards. Delegations:
// the active grants the caller may revoke (its own, or on agents it owns), with
// their expiry and Revoke; one call each (GET /v1/delegations[/pending]).
import { useState } from 'preact/hooks';
import { agentPath, announceChange, call, get } from '../api.ts';
import { Alert, Status, TabList } from '../components.tsx';
import { describeError } from '../errors.ts';
import { useLoad } from '../hooks.ts';
import { relativeTime, type Whoami } from '../model.ts';
import { hrefOf } from '../route.ts';
import { ApprovalCard, ConsentCard, type ApprovalView, type ConsentView } from './cards.tsx';

interface GrantView {
  id: string;
  agent_id: string;
  user: string;
  service: string;
  scopes: string[];
  expires_at: string;
}

async function pending(): Promise<{ approvals: ApprovalView[]; consents: ConsentView[] }> {
  const [approvals, consents] = await Promise.all([
    get<{ items: ApprovalView[] }>('/v1/approvals'),
    get<{ items: ConsentView[] }>('/v1/delegations/pending'),
  ]);
  return { approvals: approvals.items, consents: consents.items };
}

function PendingTab({ who }: { who: Whoami }) {
  const { data, error, loading } = useLoad(() => pending(), [who.subject]);
  const empty = data && data.approvals.length === 0 && data.consents.length === 0;
  return (
    <div>
      <Alert text={error} />
      <Status text="Loading…" when={loading && !data} />
      <Status text="Nothing waits for you." when={empty} />
      {data && data.consents.length > 0 ? (
        <section aria-labelledby="consents-title">
          <h2 id="consents-title">Consent requests</h2>
          {data.consents.map((c) => (
            <ConsentCard key={c.id} initial={c} />
          ))}
        </section>
      ) : null}
      {data && data.approvals.length > 0 ? (
        <section aria-labelledby="requests-title">
          <h2 id="requests-title">High-risk actions</h2>
          {data.approvals.map((a) => (
            <ApprovalCard key={a.id} initial={a} />
          ))}
        </section>
      ) : null}
    </div>
  );
}

function GrantRow({ grant }: { grant: GrantView }) {
  const [revoked, setRevoked] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const revoke = async () => {
    try {
      await call('DELETE', agentPath(grant.agent_id, `/delegations/${grant.id}`));
      setRevoked(true);
      announceChange();
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <tr>
      <th scope="row">
        <a href={hrefOf({ page: 'agent', id: grant.agent_id })}>{grant.agent_id}</a>
      </th>
      <td>{grant.user}</td>
      <td>
        {grant.service}: {grant.scopes.join(', ')}
      </td>
      <td>
        <time dateTime={grant.expires_at} title={new Date(grant.expires_at).toLocaleString()}>
          {relativeTime(grant.expires_at, Date.now())}
        </time>
      </td>
      <td>
        {revoked ? (
          <span role="status">Revoked</span>
        ) : (
          <button
            type="button"
            class="danger"
            aria-label={`Revoke ${grant.service} for ${grant.agent_id}`}
            onClick={() => void revoke()}
          >
            Revoke
          </button>
        )}
        <Alert text={error} />
      </td>
    </tr>
  );
}

function DelegationsTab({ who }: { who: Whoami }) {
  const { data, error, loading } = useLoad(
    async () => (await get<{ items: GrantView[] }>('/v1/delegations')).items,
    [who.subject],
  );
  return (
    <div>
      <Alert text={error} />
      <Status text="Loading…" when={loading && !data} />
      <Status text="No active delegation." when={data?.length === 0} />
      {data && data.length > 0 ? (
        <table data-testid="grants">
          <caption>Active delegations</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">For</th>
              <th scope="col">Service and scopes</th>
              <th scope="col">Expires</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {data.map((g) => (
              <GrantRow key={g.id} grant={g} />
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

const TABS = [
  { id: 'pending', label: 'Pending' },
  { id: 'delegations', label: 'Delegations' },
] as const;

export function ApprovalsPage({ tab, who }: { tab: 'pending' | 'delegations'; who: Whoami }) {
  const go = (t: 'pending' | 'delegations') => (location.hash = hrefOf({ page: 'approvals', tab: t }));
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      <TabList label="Approvals" tabs={TABS} current={tab} go={go} />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'pending' ? <PendingTab who={who} /> : <DelegationsTab who={who} />}
      </div>
    </section>
  );
}
