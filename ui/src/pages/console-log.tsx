// The console's log stream panel: the agent's buffered events
// (`/console/events`), then the live stream from where that list ended, with
// the filters as the server's query parameters. Pause holds new events back
// and counts them; Follow keeps the newest in view until the person scrolls
// up. A lost connection says "Reconnecting…" and resumes where it stopped.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { agentPath, endSession, get, loadSession } from '../api.ts';
import { Alert } from '../components.tsx';
import {
  afterScroll,
  atBottom,
  auditorProblem,
  DEFAULT_CAP,
  emptyLog,
  filterQuery,
  pause,
  receive,
  resume,
  setFollow,
  SEVERITIES,
  summary,
  type ConsoleEvent,
  type Filters,
  type LogState,
} from '../console-model.ts';
import { openConsoleStream, type Connection } from '../console-stream.ts';
import { describeError } from '../errors.ts';

interface EventList {
  items: ConsoleEvent[];
  missed: boolean;
  latest_id: string;
}

/** The log of `agentId` under `filters`: loaded, then live; reopened after a new sign-in. */
function useConsoleLog(agentId: string, filters: Filters) {
  const [log, setLog] = useState<LogState>(emptyLog);
  const [conn, setConn] = useState<Connection>({ state: 'connecting' });
  const [missed, setMissed] = useState(false);
  const [signIns, setSignIns] = useState(0);
  useEffect(() => {
    const again = () => setSignIns((n) => n + 1);
    window.addEventListener('platform:resumed', again);
    return () => window.removeEventListener('platform:resumed', again);
  }, []);
  useEffect(() => {
    const query = filterQuery(filters);
    let handle: { close(): void } | undefined;
    let live = true;
    setLog(emptyLog());
    setMissed(false);
    setConn({ state: 'connecting' });
    const sep = query ? `&${query}` : '';
    get<EventList>(agentPath(agentId, `/console/events?limit=${DEFAULT_CAP}${sep}`)).then(
      (list) => {
        if (!live) return;
        setLog((l) => receive(l, list.items));
        handle = openConsoleStream({
          url: agentPath(agentId, `/console/stream${query ? `?${query}` : ''}`),
          token: () => loadSession()?.key ?? '',
          after: list.latest_id === '0' ? '' : list.latest_id,
          onEvents: (events) => setLog((l) => receive(l, events)),
          onMissed: () => setMissed(true),
          onConnection: (c) => {
            setConn(c);
            if (c.state === 'stopped' && c.unauthorized) endSession();
          },
        });
      },
      (err: unknown) =>
        live && setConn({ state: 'stopped', message: describeError(err), unauthorized: false }),
    );
    return () => {
      live = false;
      handle?.close();
    };
  }, [agentId, filterQuery(filters), signIns]);
  return { log, setLog, conn, missed };
}

function ConnectionLine({ conn }: { conn: Connection }) {
  if (conn.state === 'stopped') return <Alert text={`The stream stopped. ${conn.message}`} />;
  const words = {
    connecting: 'Connecting…',
    live: 'Live.',
    reconnecting: 'Connection lost. Reconnecting…',
  }[conn.state];
  return (
    <p role="status" class={`conn conn-${conn.state}`} data-testid="connection">
      {words}
    </p>
  );
}

interface FilterProps {
  filters: Filters;
  subagents: string[];
  onChange: (f: Filters) => void;
}

function SubagentSelect({ filters, subagents, onChange }: FilterProps) {
  const names =
    filters.subagent && !subagents.includes(filters.subagent) ? [...subagents, filters.subagent] : subagents;
  return (
    <div>
      <label for="filter-subagent">Subagent</label>
      <select
        id="filter-subagent"
        value={filters.subagent}
        onChange={(e) => onChange({ ...filters, subagent: e.currentTarget.value })}
      >
        <option value="">All</option>
        {names.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}

function FilterBar(props: FilterProps) {
  const { filters, onChange } = props;
  const [auditor, setAuditor] = useState(filters.auditor);
  const problem = auditorProblem(auditor);
  const [tried, setTried] = useState(false);
  return (
    <form
      class="console-filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!problem) onChange({ ...filters, auditor: auditor.trim() });
      }}
    >
      <div>
        <label for="filter-severity">Severity</label>
        <select
          id="filter-severity"
          value={filters.severity}
          onChange={(e) => onChange({ ...filters, severity: e.currentTarget.value as Filters['severity'] })}
        >
          <option value="">All</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>{`${s} and above`}</option>
          ))}
        </select>
      </div>
      <div>
        <label for="filter-auditor">Auditor</label>
        <input
          id="filter-auditor"
          value={auditor}
          placeholder="any"
          aria-invalid={tried && problem ? 'true' : undefined}
          aria-describedby={tried && problem ? 'auditor-problem' : undefined}
          onInput={(e) => setAuditor(e.currentTarget.value)}
        />
      </div>
      <button type="submit" class="secondary">
        Apply
      </button>
      <SubagentSelect {...props} />
      {tried ? <Alert id="auditor-problem" text={problem} /> : null}
    </form>
  );
}

const time = (iso: string): string => new Date(iso).toLocaleTimeString();

function EventRow({ e }: { e: ConsoleEvent }) {
  return (
    <li data-testid="console-event" data-id={e.id} class={`sev-${e.severity}`}>
      <time dateTime={e.timestamp}>{time(e.timestamp)}</time>
      <span class={`sev sev-${e.severity}`}>{e.severity}</span>
      <span class="etype">{e.type.replace('_', ' ')}</span>
      {e.subagent ? <span class="ev-who">{e.subagent}</span> : null}
      {e.auditor ? <span class="ev-who">{e.auditor}</span> : null}
      <span class="what">{summary(e)}</span>
    </li>
  );
}

function Controls({ log, setLog }: { log: LogState; setLog: (f: (l: LogState) => LogState) => void }) {
  return (
    <div class="console-controls">
      <button
        type="button"
        class="secondary"
        aria-pressed={log.paused}
        onClick={() => setLog((l) => (l.paused ? resume(l) : pause(l)))}
      >
        {log.paused ? 'Resume' : 'Pause'}
      </button>
      <button
        type="button"
        class="secondary"
        aria-pressed={log.follow}
        onClick={() => setLog((l) => setFollow(l, !l.follow))}
      >
        Follow
      </button>
      {log.paused ? <span role="status" data-testid="new-count">{`${log.newCount} new`}</span> : null}
    </div>
  );
}

export function LogPanel({
  agentId,
  filters,
  subagents,
  onFilters,
}: {
  agentId: string;
  filters: Filters;
  subagents: string[];
  onFilters: (f: Filters) => void;
}) {
  const { log, setLog, conn, missed } = useConsoleLog(agentId, filters);
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && log.follow) el.scrollTop = el.scrollHeight;
  }, [log.shown, log.follow]);
  return (
    <section aria-labelledby="log-title" class="card console-log">
      <div class="card-head">
        <h2 id="log-title">Log stream</h2>
        <ConnectionLine conn={conn} />
      </div>
      <FilterBar key={filters.auditor} filters={filters} subagents={subagents} onChange={onFilters} />
      <Controls log={log} setLog={setLog} />
      {missed ? (
        <p class="warn" role="note">
          Some events were removed from the server’s buffer while the connection was away; they cannot be
          shown.
        </p>
      ) : null}
      <div
        class="console-scroll"
        ref={box}
        tabIndex={0}
        role="region"
        aria-label="Console events"
        onScroll={(e) => {
          const bottom = atBottom(e.currentTarget);
          setLog((l) => afterScroll(l, bottom));
        }}
      >
        {log.shown.length === 0 ? <p class="muted">No events yet.</p> : null}
        <ol class="events" data-testid="console-events">
          {log.shown.map((e) => (
            <EventRow key={e.id} e={e} />
          ))}
        </ol>
      </div>
    </section>
  );
}
