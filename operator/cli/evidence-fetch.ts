// Reading recorded Evidence from the Verifier for the user commands: an
// agent's timeline (`GET /v1/agents/{id}/evidence`, newest first, pages of 500
// by `before_seq`) cut to a time range on `generated_at`, each item turned
// back into the stored entry (Evidence, AttestationResult, chain links); a
// workspace's agents (`GET /v1/agents?namespace=`). Time flags: `--since 24h`
// or `--from`/`--to` (RFC 3339).
import type { StoredEvidence } from '../../evidence/store.ts';
import type { AttestationResult } from '../../evidence/result.ts';
import type { Evidence } from '../../evidence/types.ts';
import { DEFAULT_EVIDENCE_WINDOW } from '../../evidence/validate.ts';
import type { ApiClient } from './client.ts';
import { CliError, EXIT, usageError } from './errors.ts';

export interface TimeRange {
  fromMs: number;
  toMs: number;
}

const SINCE_RE = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `24h`, `7d` → milliseconds. */
export function parseSince(value: string): number {
  const m = SINCE_RE.exec(value.trim());
  if (!m || Number(m[1]) === 0)
    throw usageError(`invalid --since '${value}'`, 'use a duration such as 30m, 24h or 7d');
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

function parseTime(flag: string, value: string): number {
  const ms = /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw usageError(`invalid ${flag} '${value}'`, 'use an RFC 3339 time, e.g. 2030-01-01T00:00:00Z');
  return ms;
}

export interface RangeFlags {
  since?: string;
  from?: string;
  to?: string;
}

function checkCombination(flags: RangeFlags): void {
  if (flags.since !== undefined && (flags.from !== undefined || flags.to !== undefined))
    throw usageError(
      '--since cannot be combined with --from or --to',
      'give either --since D or --from T [--to T]',
    );
  if (flags.from === undefined && flags.to !== undefined) throw usageError('--to needs --from');
}

/** The range the flags name; `--since` and `--from` exclude each other; none: the last `fallback`. */
export function rangeOf(flags: RangeFlags, nowMs: number, fallback = '24h'): TimeRange {
  checkCombination(flags);
  if (flags.from === undefined) return { fromMs: nowMs - parseSince(flags.since ?? fallback), toMs: nowMs };
  const fromMs = parseTime('--from', flags.from);
  const toMs = flags.to ? parseTime('--to', flags.to) : nowMs;
  if (toMs < fromMs) throw usageError('--to is before --from');
  return { fromMs, toMs };
}

/** A timeline item as `/v1/agents/{id}/evidence` serves it: the Evidence with its entry's fields. */
type TimelineItem = Evidence & {
  seq: number;
  prev_hash?: string;
  hash: string;
  received_at?: string;
  agent_uid?: string;
  attestation_result: AttestationResult;
};

/** The stored entry a timeline item shows. */
export function entryOf(item: TimelineItem): StoredEvidence {
  const {
    seq,
    prev_hash,
    hash,
    received_at,
    agent_uid,
    attestation_result,
    trust_tier: _tier,
    ...evidence
  } = item;
  if (typeof prev_hash !== 'string' || typeof received_at !== 'string') {
    throw new CliError(
      'the Verifier does not serve the hash-chain fields of its Evidence (prev_hash, received_at)',
      EXIT.failed,
      'upgrade the api role',
    );
  }
  return {
    seq,
    evidence_id: evidence.evidence_id,
    agent_id: evidence.agent_id,
    ...(agent_uid === undefined ? {} : { agent_uid }),
    received_at,
    evidence: evidence as Evidence,
    result: attestation_result,
    prev_hash,
    hash,
  };
}

const PAGE = 500;

/** Whether an entry received at `receivedAt` may still hold Evidence generated at or after `fromMs`. */
const mayReach = (receivedAt: string | undefined, fromMs: number): boolean =>
  receivedAt === undefined || Date.parse(receivedAt) >= fromMs - DEFAULT_EVIDENCE_WINDOW.maxFutureMs;

/** The agent's stored Evidence generated within `range`, oldest first. */
export async function agentEvidence(
  client: ApiClient,
  agentId: string,
  range: TimeRange,
): Promise<StoredEvidence[]> {
  const out: StoredEvidence[] = [];
  let before = 0;
  for (;;) {
    const query = `limit=${PAGE}${before > 0 ? `&before_seq=${before}` : ''}`;
    const { body } = await client.get<{ items?: TimelineItem[] }>(
      `/v1/agents/${encodeURIComponent(agentId)}/evidence?${query}`,
    );
    const items = body.items ?? [];
    for (const item of items) {
      const t = Date.parse(item.generated_at);
      if (t >= range.fromMs && t <= range.toMs) out.push(entryOf(item));
    }
    const last = items[items.length - 1];
    if (!last || items.length < PAGE || !mayReach(last.received_at, range.fromMs)) break;
    before = last.seq;
  }
  return out.sort((a, b) => a.seq - b.seq);
}

/** The ids of the agents in `namespace` the caller may see. */
export async function workspaceAgents(client: ApiClient, namespace: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | undefined;
  do {
    const query = `namespace=${encodeURIComponent(namespace)}&limit=1000${next ? `&continue=${next}` : ''}`;
    const { body } = await client.get<{ items?: { agent_id: string }[]; continue?: string }>(
      `/v1/agents?${query}`,
    );
    ids.push(...(body.items ?? []).map((a) => a.agent_id));
    next = body.continue;
  } while (next);
  return ids;
}
