// The evidence bundle (`platform evidence export`): one agent's stored
// Evidence entries over a time range, each exactly as the evidence store
// holds it (the Evidence, the Verifier's AttestationResult and the entry's
// place in the hash chain), with what checking them offline needs: the
// attester public keys the Evidence was signed with and the trust ceiling of
// every auditor it names. The text puts one record on a line, so a record
// whose bytes no longer parse can still be named. Pure; checked by
// `bundle-verify.ts`; the format is documented in docs/cli.md.
import type { StoredEvidence } from './store.ts';
import { TRUST_TIERS, type TrustTier } from './types.ts';

export const BUNDLE_FORMAT = 'platform.evidence-bundle';
export const BUNDLE_VERSION = 1;

/** A key an attester (a Gateway) signed the bundle's Evidence with. */
export interface BundleKey {
  attester_id: string;
  key_id: string;
  /** Raw Ed25519 public key, base64url. */
  public_key: string;
  provider: string;
}

/** The most an auditor's registration lets it earn, as the Verifier held it when the bundle was made. */
export interface BundleAuditor {
  auditor_id: string;
  deployment_mode: string;
  ceiling: TrustTier;
}

export interface BundleChain {
  /** How each record's `hash` is computed (see `evidence/store.ts` `entryHash`). */
  hash: string;
  first_seq: number | null;
  last_seq: number | null;
  last_hash: string | null;
}

export interface EvidenceBundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  exported_at: string;
  server: string;
  agent_id: string;
  range: { from: string; to: string };
  trust: { attester_keys: BundleKey[]; auditors: BundleAuditor[] };
  chain: BundleChain;
  /** Oldest first (by `seq`). Always the last member, one record per line. */
  records: StoredEvidence[];
}

export const CHAIN_HASH =
  'sha256(prev_hash + "\\n" + RFC 8785 canonical JSON of the record without `hash`), hex';

/** Every (attester, key id) the records were signed with, in first-use order. */
export function attesterKeys(records: readonly StoredEvidence[]): BundleKey[] {
  const seen = new Map<string, BundleKey>();
  for (const { evidence: e } of records) {
    const id = `${e.attester_id}\n${e.attestation.key_id}`;
    if (!seen.has(id))
      seen.set(id, {
        attester_id: e.attester_id,
        key_id: e.attestation.key_id,
        public_key: e.attestation.public_key,
        provider: e.attestation.provider,
      });
  }
  return [...seen.values()];
}

/** An auditor as `GET /v1/auditors` lists it. */
export interface ListedAuditor {
  auditor_id: string;
  deployment_mode?: string;
  trust_tier?: string;
}

/**
 * The registration ceiling of a listed auditor. The list caps every tier at
 * `mtls_verified` (no hardware quote is known there); a sidecar's registration
 * itself allows `tee_attested` (`evidence/trust.ts` `registrationCeiling`).
 */
export function ceilingOf(a: ListedAuditor): TrustTier {
  if (a.deployment_mode === 'sidecar') return 'tee_attested';
  return TRUST_TIERS.includes(a.trust_tier as TrustTier) ? (a.trust_tier as TrustTier) : 'unverified';
}

export interface BundleMeta {
  exportedAt: string;
  server: string;
  agentId: string;
  from: string;
  to: string;
}

/** The bundle of `records` (any order), with the ceilings of the auditors they name. */
export function buildBundle(
  meta: BundleMeta,
  records: readonly StoredEvidence[],
  auditors: readonly ListedAuditor[],
): EvidenceBundle {
  const sorted = [...records].sort((a, b) => a.seq - b.seq);
  const named = new Set(sorted.flatMap((r) => (r.evidence.auditors ?? []).map((a) => a.auditor_id)));
  const last = sorted[sorted.length - 1];
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exported_at: meta.exportedAt,
    server: meta.server,
    agent_id: meta.agentId,
    range: { from: meta.from, to: meta.to },
    trust: {
      attester_keys: attesterKeys(sorted),
      auditors: auditors
        .filter((a) => named.has(a.auditor_id))
        .map((a) => ({
          auditor_id: a.auditor_id,
          deployment_mode: a.deployment_mode ?? 'unknown',
          ceiling: ceilingOf(a),
        })),
    },
    chain: {
      hash: CHAIN_HASH,
      first_seq: sorted[0]?.seq ?? null,
      last_seq: last?.seq ?? null,
      last_hash: last?.hash ?? null,
    },
    records: sorted,
  };
}

const RECORDS_TAIL = '"records": []\n}';

/** The bundle's text: the header indented, then one record per line. */
export function serializeBundle(bundle: EvidenceBundle): string {
  const { records, ...header } = bundle;
  const head = JSON.stringify({ ...header, records: [] }, null, 2);
  if (records.length === 0) return `${head}\n`;
  const lines = records.map((r) => JSON.stringify(r)).join(',\n');
  return `${head.slice(0, -RECORDS_TAIL.length)}"records": [\n${lines}\n]\n}\n`;
}

/** Where a bundle's text stops being JSON: the record line that breaks it, or the header. */
export type BrokenAt = { index: number; line: number; id: string | undefined } | { header: true };

const ID_IN_LINE = /"evidence_id":"([^"\\]{1,253})"/;

/** Finds the record line that does not parse, or that is not followed by the right separator. */
export function locateBreak(text: string): BrokenAt {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === '"records": [' || l.trim() === '"records": [');
  if (start < 0) return { header: true };
  let index = 0;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === ']') break;
    const last = lines[i + 1] === ']';
    const body = !last && line.endsWith(',') ? line.slice(0, -1) : line;
    if (!parses(body) || (!last && !line.endsWith(',')))
      return { index, line: i + 1, id: ID_IN_LINE.exec(line)?.[1] };
    index++;
  }
  return { header: true };
}

function parses(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}
