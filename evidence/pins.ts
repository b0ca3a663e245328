// Attester key pins, bound to the credential that presented them. An
// attester id belongs to the credential that first pinned a key for it: only
// that credential pins further keys (a gateway rotates its own signing key)
// or submits under it. Pins are an append-only list of events per attester;
// the current state is their fold. Pure: the stores keep the events, the
// intake decides with `decidePin`.

/** One change to an attester's pins, in the order they were appended. */
export interface PinEvent {
  attester_id: string;
  key_id: string;
  /** The pinned public key; null: the key id is revoked (an org administrator's act). */
  public_key: string | null;
  /** The credential owning the attester from this event on; null: unchanged. */
  owner: string | null;
  at: string;
}

export interface AttesterPins {
  /** The owning credential; null: nobody (pins older than ownership, or every key revoked). */
  owner: string | null;
  /** key id → public key; null for a revoked key id (never pinned again). */
  keys: Map<string, string | null>;
  /** How many events the state folds: the stores append only after exactly this many. */
  version: number;
}

export function foldPins(events: readonly PinEvent[]): AttesterPins {
  const state: AttesterPins = { owner: null, keys: new Map(), version: 0 };
  for (const e of events) {
    state.version++;
    state.keys.set(e.key_id, e.public_key);
    if (e.owner !== null) state.owner = e.owner;
    // Revoking the last live key releases the attester: the next credential claims it.
    if (e.public_key === null && ![...state.keys.values()].some((k) => k !== null)) state.owner = null;
  }
  return state;
}

export type PinVerdict = { ok: true; event?: Omit<PinEvent, 'at'> } | { ok: false; problem: string };

/**
 * Whether `presenter` may submit under (attester, key id) with `publicKey`,
 * and the event to append. `ownerLive`: the owning credential still exists
 * (a revoked or expired credential's attester is released to the next one).
 */
export interface PinRequest {
  attesterId: string;
  keyId: string;
  publicKey: string;
  /** The credential submitting. */
  presenter: string;
}

export function decidePin(state: AttesterPins, request: PinRequest, ownerLive: boolean): PinVerdict {
  const { attesterId, keyId, publicKey, presenter } = request;
  const pinned = state.keys.get(keyId);
  if (pinned === null)
    return { ok: false, problem: `key ${keyId} of ${attesterId} was revoked by an administrator` };
  if (pinned !== undefined && pinned !== publicKey)
    return { ok: false, problem: `key ${keyId} of ${attesterId} is pinned to another public key` };
  const owned = state.owner !== null && state.owner !== presenter && ownerLive;
  if (owned) {
    return {
      ok: false,
      problem: `attester ${attesterId} is bound to another credential; an org administrator revokes its keys to release it`,
    };
  }
  const base = { attester_id: attesterId, key_id: keyId, public_key: publicKey };
  if (pinned === undefined) return { ok: true, event: { ...base, owner: presenter } };
  if (state.owner !== presenter) return { ok: true, event: { ...base, owner: presenter } };
  return { ok: true };
}

/** Events that pin the keys found in Evidence stored before pins had owners (owner unknown). */
export function legacyPinEvents(
  entries: Iterable<{
    evidence: { attester_id: string; attestation: { key_id: string; public_key: string } };
  }>,
  at: string,
): PinEvent[] {
  const seen = new Set<string>();
  const out: PinEvent[] = [];
  for (const { evidence: e } of entries) {
    const id = `${e.attester_id}/${e.attestation.key_id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      attester_id: e.attester_id,
      key_id: e.attestation.key_id,
      public_key: e.attestation.public_key,
      owner: null,
      at,
    });
  }
  return out;
}
