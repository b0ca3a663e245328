// Attester key pins bound to the credential that first presented them.
import { describe, expect, it } from 'vitest';
import { decidePin, foldPins, type PinEvent } from './pins.ts';

const event = (key: string, publicKey: string | null, owner: string | null): PinEvent => ({
  attester_id: 'gateway/a',
  key_id: key,
  public_key: publicKey,
  owner,
  at: '2026-01-01T00:00:00Z',
});
const presented = (key: string, pk: string, presenter: string) => ({
  attesterId: 'gateway/a',
  keyId: key,
  publicKey: pk,
  presenter,
});
/** The decision while the pinned owner's credential is live. */
const decide = (events: PinEvent[], key: string, pk: string, presenter: string) =>
  decidePin(foldPins(events), presented(key, pk, presenter), true);

describe('decidePin', () => {
  it('pins the first key for the presenting credential', () => {
    expect(decide([], 'k1', 'pk1', 'apikey:a')).toEqual({
      ok: true,
      event: { attester_id: 'gateway/a', key_id: 'k1', public_key: 'pk1', owner: 'apikey:a' },
    });
  });

  it('lets the owning credential rotate to a new key and reuse its pinned one', () => {
    const pinned = [event('k1', 'pk1', 'apikey:a')];
    expect(decide(pinned, 'k1', 'pk1', 'apikey:a')).toEqual({ ok: true });
    expect(decide(pinned, 'k2', 'pk2', 'apikey:a')).toMatchObject({ ok: true, event: { key_id: 'k2' } });
  });

  it('refuses another credential, with a new key or the pinned one', () => {
    const pinned = [event('k1', 'pk1', 'apikey:a')];
    const bound = {
      ok: false,
      problem:
        'attester gateway/a is bound to another credential; an org administrator revokes its keys to release it',
    };
    expect(decide(pinned, 'k2', 'pk2', 'apikey:b')).toEqual(bound);
    expect(decide(pinned, 'k1', 'pk1', 'apikey:b')).toEqual(bound);
  });

  it('refuses another public key behind a pinned key id, even from the owner', () => {
    expect(decide([event('k1', 'pk1', 'apikey:a')], 'k1', 'other', 'apikey:a')).toEqual({
      ok: false,
      problem: 'key k1 of gateway/a is pinned to another public key',
    });
  });

  it('releases the attester of a credential that no longer exists to the next one', () => {
    expect(
      decidePin(foldPins([event('k1', 'pk1', 'apikey:a')]), presented('k2', 'pk2', 'apikey:b'), false),
    ).toMatchObject({
      ok: true,
      event: { key_id: 'k2', owner: 'apikey:b' },
    });
  });

  it('lets the first credential claim pins older than ownership', () => {
    expect(decide([event('k1', 'pk1', null)], 'k1', 'pk1', 'apikey:b')).toMatchObject({
      ok: true,
      event: { key_id: 'k1', owner: 'apikey:b' },
    });
  });

  it('never pins a revoked key id again, and revoking the last key releases the attester', () => {
    const revoked = [event('k1', 'pk1', 'apikey:a'), event('k1', null, null)];
    expect(decide(revoked, 'k1', 'pk1', 'apikey:a')).toEqual({
      ok: false,
      problem: 'key k1 of gateway/a was revoked by an administrator',
    });
    expect(foldPins(revoked).owner).toBeNull();
    expect(decide(revoked, 'k2', 'pk2', 'apikey:b')).toMatchObject({
      ok: true,
      event: { owner: 'apikey:b' },
    });
  });

  it('keeps the owner while another key is still pinned', () => {
    const state = foldPins([
      event('k1', 'pk1', 'apikey:a'),
      event('k2', 'pk2', null),
      event('k1', null, null),
    ]);
    expect(state.owner).toBe('apikey:a');
    expect(state.version).toBe(3);
  });
});
