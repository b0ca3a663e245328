// One agent's passport: identity, Owners and shares (with the share
// dialog), recorded accesses, the trust tier per auditor and the evidence
// timeline, newest first.
import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { agentPath, get } from '../api.ts';
import { Alert, Status } from '../components.tsx';
import { useLoad, useOnChange } from '../hooks.ts';
import { accessOf, type Share, type Whoami } from '../model.ts';
import { hrefOf, settingsHref } from '../route.ts';
import { ShareDialog } from './share-dialog.tsx';

interface Passport {
  agent_id: string;
  email: string | null;
  handle: string | null;
  spiffe_id: string | null;
  phase: string;
  owners: Share[];
  accountable_owners: number;
  accesses: { source: string; time: string; resource: string; operation: string }[];
  access_count: number;
  trust_tiers: {
    auditor_id: string;
    deployment_mode: string | null;
    trust_tier: string;
    attested_tier: string | null;
  }[];
  attestation: {
    trust_tier: string | null;
    hardware_attested: boolean;
    last_attestation_time?: string | null;
  };
}

interface EvidenceItem {
  evidence_id?: string;
  seq: number;
  received_at?: string;
  trust_tier?: string;
  attestation_result: {
    decision?: string;
    blocked?: boolean;
    provider?: string;
    quote?: string;
    policy_id?: string;
  };
}

const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');

function Identity({ p }: { p: Passport }) {
  const rows: [string, string | null][] = [
    ['Status', p.phase],
    ['Email', p.email],
    ['Handle', p.handle],
    ['SPIFFE ID', p.spiffe_id],
    ['Trust tier', p.attestation.trust_tier],
    ['Hardware attested', p.attestation.hardware_attested ? 'yes' : 'no'],
    ['Last attestation', when(p.attestation.last_attestation_time)],
  ];
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

function Owners({
  p,
  access,
  onShare,
  shareRef,
}: {
  p: Passport;
  access: ReturnType<typeof accessOf>;
  onShare: () => void;
  shareRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <section aria-labelledby="owners-title" class="card">
      <div class="card-head">
        <h2 id="owners-title">People</h2>
        {access.mayChange ? (
          <button type="button" ref={shareRef} onClick={onShare}>
            Share…
          </button>
        ) : null}
      </div>
      {access.mayChange ? null : (
        <p class="help" data-testid="access-note">
          {`You are ${access.role ? `a ${access.role}` : 'not shared'} on this agent: you can see it but not change it.`}
        </p>
      )}
      {p.accountable_owners === 0 ? (
        <p class="warn" role="note">
          This agent has no Owner and is suspended until one is added.
        </p>
      ) : null}
      <ul class="people" data-testid="owners">
        {p.owners.map((o) => (
          <li key={o.subject}>
            <span>{o.subject}</span> <span class={`role role-${o.role}`}>{o.role}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function TrustTiers({ p }: { p: Passport }) {
  if (p.trust_tiers.length === 0) return <p>No auditor has reported for this agent yet.</p>;
  return (
    <table data-testid="trust-tiers">
      <caption>Attestation results per auditor</caption>
      <thead>
        <tr>
          <th scope="col">Auditor</th>
          <th scope="col">Deployment</th>
          <th scope="col">Trust tier</th>
          <th scope="col">Attested tier</th>
        </tr>
      </thead>
      <tbody>
        {p.trust_tiers.map((t) => (
          <tr key={t.auditor_id}>
            <th scope="row">{t.auditor_id}</th>
            <td>{t.deployment_mode ?? '—'}</td>
            <td>{t.trust_tier}</td>
            <td>{t.attested_tier ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Accesses({ p }: { p: Passport }) {
  if (p.accesses.length === 0) return <p>No access recorded yet.</p>;
  return (
    <table data-testid="accesses">
      <caption>{`Recent accesses (${p.access_count} in all)`}</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Kind</th>
          <th scope="col">Resource</th>
          <th scope="col">Operation</th>
        </tr>
      </thead>
      <tbody>
        {p.accesses.map((a, i) => (
          <tr key={i}>
            <td>{when(a.time)}</td>
            <td>{a.source === 'model_call' ? 'model call' : 'data access'}</td>
            <td>{a.resource}</td>
            <td>{a.operation}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Timeline({ items }: { items: EvidenceItem[] }) {
  if (items.length === 0) return <p>No evidence recorded yet.</p>;
  return (
    <ol class="timeline" data-testid="timeline">
      {items.map((e) => (
        <li key={e.seq}>
          <time dateTime={e.received_at}>{when(e.received_at)}</time>
          <span class={`decision decision-${e.attestation_result.decision ?? 'unknown'}`}>
            {e.attestation_result.decision ?? 'unknown'}
            {e.attestation_result.blocked ? ' (blocked)' : ''}
          </span>
          <span>tier {e.trust_tier ?? '—'}</span>
          <code>{e.evidence_id ?? `#${e.seq}`}</code>
        </li>
      ))}
    </ol>
  );
}

function AgentHeader({ id }: { id: string }) {
  return (
    <>
      <p class="crumbs">
        <a href="#/agents">Agents</a> / {id}
      </p>
      <h1 id="agent-title">{id}</h1>
      <p class="links">
        <a href={hrefOf({ page: 'console', id })}>Console</a>{' '}
        <a href={settingsHref({ scope: 'agent', agent_id: id })}>Auditor settings</a>
      </p>
    </>
  );
}

export function AgentPage({ id, who }: { id: string; who: Whoami }) {
  const passport = useLoad(() => get<Passport>(agentPath(id, '/passport')), [id]);
  const evidence = useLoad(() => get<{ items: EvidenceItem[] }>(agentPath(id, '/evidence?limit=50')), [id]);
  const [sharing, setSharing] = useState(false);
  const shareButton = useRef<HTMLButtonElement>(null);
  useOnChange(passport.reload);
  const p = passport.data;
  return (
    <section aria-labelledby="agent-title">
      <AgentHeader id={id} />
      <Alert text={passport.error} />
      <Status text="Loading the passport…" when={!p && passport.loading} />
      {p ? (
        <>
          <div class="grid">
            <section aria-labelledby="identity-title" class="card">
              <h2 id="identity-title">Passport</h2>
              <Identity p={p} />
            </section>
            <Owners
              p={p}
              access={accessOf(who, p.owners, id.split('.')[0] ?? '')}
              onShare={() => setSharing(true)}
              shareRef={shareButton}
            />
          </div>
          <section aria-labelledby="tiers-title" class="card">
            <h2 id="tiers-title">Trust tiers</h2>
            <TrustTiers p={p} />
          </section>
          <section aria-labelledby="accesses-title" class="card">
            <h2 id="accesses-title">Accesses</h2>
            <Accesses p={p} />
          </section>
        </>
      ) : null}
      <section aria-labelledby="timeline-title" class="card">
        <h2 id="timeline-title">Evidence timeline</h2>
        <Alert text={evidence.error} />
        {evidence.data ? <Timeline items={evidence.data.items} /> : null}
      </section>
      {sharing ? (
        <ShareDialog
          agentId={id}
          who={who}
          onClose={() => {
            setSharing(false);
            // Once the modal is gone (focus outside it is refused while it is open), back to its opener.
            requestAnimationFrame(() => shareButton.current?.focus());
          }}
        />
      ) : null}
    </section>
  );
}
