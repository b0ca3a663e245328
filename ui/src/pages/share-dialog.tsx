// The share dialog: who has the agent and in which role; add a person as
// Owner, Editor or Viewer, change a role, remove. A change that leaves no
// Owner asks first (the agent is then suspended). A modal <dialog>: Tab stays
// inside, Esc closes, every control has a label; typed text survives errors.
import { useEffect, useRef, useState } from 'preact/hooks';
import { agentPath, announceChange, call, get } from '../api.ts';
import { Alert } from '../components.tsx';
import { describeError } from '../errors.ts';
import { trapTab } from '../focus.ts';
import {
  leavesNoOwner,
  SHARE_ROLES,
  type Share,
  type ShareList,
  type ShareRole,
  type Whoami,
} from '../model.ts';

interface Pending {
  subject: string;
  role?: ShareRole;
}

function useShares(agentId: string) {
  const [list, setList] = useState<ShareList | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    get<ShareList>(agentPath(agentId, '/shares')).then(setList, (e: unknown) => setError(describeError(e)));
  }, [agentId]);
  return { list, setList, error, setError };
}

function ShareRow({
  share,
  onChange,
  onRemove,
}: {
  share: Share;
  onChange: (r: ShareRole) => void;
  onRemove: () => void;
}) {
  const id = `role-${share.subject.replace(/[^a-zA-Z0-9]/g, '-')}`;
  return (
    <li class="share-row">
      <label for={id} class="subject">
        {share.subject}
      </label>
      <select id={id} value={share.role} onChange={(e) => onChange(e.currentTarget.value as ShareRole)}>
        {SHARE_ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <button type="button" class="secondary" aria-label={`Remove ${share.subject}`} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}

function Confirm({ pending, onYes, onNo }: { pending: Pending; onYes: () => void; onNo: () => void }) {
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  const what = pending.role ? `Making ${pending.subject} ${pending.role}` : `Removing ${pending.subject}`;
  return (
    <div class="confirm" role="alert" data-testid="last-owner-warning">
      <p>
        <strong>{what} leaves this agent without an Owner.</strong> The agent will be suspended until an Owner
        is added.
      </p>
      <button type="button" class="danger" ref={yes} onClick={onYes}>
        {pending.role ? 'Change and suspend' : 'Remove and suspend'}
      </button>{' '}
      <button type="button" class="secondary" onClick={onNo}>
        Keep the Owner
      </button>
    </div>
  );
}

function AddForm({ onAdd }: { onAdd: (s: Share) => Promise<string | undefined> }) {
  const [subject, setSubject] = useState('');
  const [role, setRole] = useState<ShareRole>('Viewer');
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!subject.trim()) return setError('Enter the email or user id of the person to add.');
    const problem = await onAdd({ subject: subject.trim(), role });
    setError(problem);
    if (!problem) setSubject('');
  };
  return (
    <form class="add-share" onSubmit={(e) => void submit(e)} noValidate>
      <label for="share-subject">Person (email or user id)</label>
      <input
        id="share-subject"
        value={subject}
        autocomplete="off"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'share-error' : undefined}
        onInput={(e) => setSubject(e.currentTarget.value)}
      />
      <label for="share-role">Role</label>
      <select id="share-role" value={role} onChange={(e) => setRole(e.currentTarget.value as ShareRole)}>
        {SHARE_ROLES.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button type="submit">Add</button>
      <Alert text={error} id="share-error" />
    </form>
  );
}

/** The modal element: shown on mount, Esc and the Close button call onClose, Tab is kept inside. */
function useModal(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    // While the login page is shown over an ended session, the dialog leaves the top layer (and comes back).
    const hide = () => d.open && d.close();
    const show = () => !d.open && d.showModal();
    window.addEventListener('platform:expired', hide);
    window.addEventListener('platform:resumed', show);
    return () => {
      window.removeEventListener('platform:expired', hide);
      window.removeEventListener('platform:resumed', show);
      d.close();
    };
  }, []);
  const onCancel = (e: Event) => {
    e.preventDefault();
    onClose();
  };
  const onKeyDown = (e: KeyboardEvent) => ref.current && trapTab(ref.current, e);
  return { ref, onCancel, onKeyDown };
}

export function ShareDialog({ agentId, onClose }: { agentId: string; who: Whoami; onClose: () => void }) {
  const { list, setList, error, setError } = useShares(agentId);
  const [pending, setPending] = useState<Pending | undefined>(undefined);
  const modal = useModal(onClose);
  const write = async (method: string, path: string, body?: unknown): Promise<string | undefined> => {
    try {
      setList(await call<ShareList>(method, agentPath(agentId, path), body));
      setError(undefined);
      announceChange();
      return undefined;
    } catch (e) {
      return describeError(e);
    }
  };
  const apply = async (p: Pending) => {
    setPending(undefined);
    const path = p.role ? '/shares' : `/shares/${encodeURIComponent(p.subject)}`;
    setError(
      await write(
        p.role ? 'POST' : 'DELETE',
        path,
        p.role ? { subject: p.subject, role: p.role } : undefined,
      ),
    );
  };
  const propose = (p: Pending) =>
    leavesNoOwner(list?.shares ?? [], p.subject, p.role) ? setPending(p) : void apply(p);
  return (
    <dialog
      ref={modal.ref}
      class="dialog"
      aria-labelledby="share-title"
      onCancel={modal.onCancel}
      onKeyDown={modal.onKeyDown}
    >
      <h2 id="share-title">Share {agentId}</h2>
      <Alert text={error} />
      {pending ? (
        <Confirm pending={pending} onYes={() => void apply(pending)} onNo={() => setPending(undefined)} />
      ) : null}
      <ul class="shares" aria-label="People with access">
        {(list?.shares ?? []).map((s) => (
          <ShareRow
            key={s.subject}
            share={s}
            onChange={(role) => propose({ subject: s.subject, role })}
            onRemove={() => propose({ subject: s.subject })}
          />
        ))}
      </ul>
      <AddForm onAdd={(s) => write('POST', '/shares', s)} />
      <div class="dialog-actions">
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
