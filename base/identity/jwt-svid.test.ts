import { SignJWT, base64url, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueJwtSvid, verifyJwtSvid } from './jwt-svid.ts';
import {
  generateTrustKey,
  signingKeyOf,
  trustBundle,
  type SigningKey,
  type StoredTrustKey,
} from './trust-keys.ts';

const TD = 'td.test';
const SUB = `spiffe://${TD}/agent/ns.alice`;
const NOW = 1_800_000_000;
let stored: StoredTrustKey;
let key: SigningKey;
let bundle: { keys: Record<string, unknown>[] };

const verify = (token: string, over: { audience?: string; now?: number; trustDomain?: string } = {}) =>
  verifyJwtSvid(token, { bundle: bundle as never, audience: 'svc-a', trustDomain: TD, now: NOW, ...over });

beforeAll(async () => {
  stored = await generateTrustKey(TD, NOW * 1000, 86_400_000);
  key = (await signingKeyOf([stored]))!;
  bundle = trustBundle(TD, [stored], 300).jwt_authorities as never;
});

describe('JWT-SVIDs', () => {
  it('issues a token with the SPIFFE header and claims, and verifies it', async () => {
    const token = await issueJwtSvid({
      spiffeId: SUB,
      audience: ['svc-a', 'svc-b'],
      ttlSeconds: 300,
      key,
      now: NOW,
    });
    const header = JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[0]!)));
    expect(header).toEqual({ alg: 'ES256', kid: stored.kid, typ: 'JWT' });
    const outcome = await verify(token);
    expect(outcome).toMatchObject({
      ok: true,
      spiffeId: SUB,
      claims: { sub: SUB, iat: NOW, exp: NOW + 300 },
    });
  });

  it('refuses a forged signature (another key under the same kid)', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await issueJwtSvid({
      spiffeId: SUB,
      audience: 'svc-a',
      ttlSeconds: 300,
      key: { ...key, privateKey },
      now: NOW,
    });
    expect(await verify(forged)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('refuses an unknown kid', async () => {
    const token = await issueJwtSvid({
      spiffeId: SUB,
      audience: 'svc-a',
      ttlSeconds: 300,
      key: { ...key, kid: 'other' },
      now: NOW,
    });
    expect(await verify(token)).toEqual({ ok: false, reason: 'unknown key id' });
  });

  it('refuses an expired token', async () => {
    const token = await issueJwtSvid({ spiffeId: SUB, audience: 'svc-a', ttlSeconds: 300, key, now: NOW });
    expect(await verify(token, { now: NOW + 301 })).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a wrong audience', async () => {
    const token = await issueJwtSvid({ spiffeId: SUB, audience: 'svc-b', ttlSeconds: 300, key, now: NOW });
    expect(await verify(token)).toEqual({ ok: false, reason: 'claim aud invalid' });
  });

  it('refuses alg none', async () => {
    const enc = (o: object) => base64url.encode(JSON.stringify(o));
    const token = `${enc({ alg: 'none', kid: stored.kid, typ: 'JWT' })}.${enc({ sub: SUB, aud: 'svc-a', exp: NOW + 300 })}.`;
    expect(await verify(token)).toMatchObject({ ok: false });
  });

  it('refuses HS256, even keyed with the public key', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(bundle.keys[0]));
    const token = await new SignJWT({ sub: SUB, aud: 'svc-a', exp: NOW + 300 })
      .setProtectedHeader({ alg: 'HS256', kid: stored.kid, typ: 'JWT' })
      .sign(secret);
    expect(await verify(token)).toEqual({ ok: false, reason: 'algorithm not allowed' });
  });

  it('refuses a sub that is not a SPIFFE ID of the trust domain', async () => {
    const other = await issueJwtSvid({
      spiffeId: 'spiffe://evil.test/agent/x',
      audience: 'svc-a',
      ttlSeconds: 300,
      key,
      now: NOW,
    });
    expect((await verify(other)).ok).toBe(false);
    const plain = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: stored.kid, typ: 'JWT' })
      .setSubject('alice')
      .setAudience('svc-a')
      .setExpirationTime(NOW + 300)
      .sign(key.privateKey);
    expect(await verify(plain)).toEqual({
      ok: false,
      reason: `sub is not a SPIFFE ID of trust domain ${TD}`,
    });
  });

  it('refuses a token without exp', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: stored.kid, typ: 'JWT' })
      .setSubject(SUB)
      .setAudience('svc-a')
      .sign(key.privateKey);
    expect(await verify(token)).toMatchObject({ ok: false });
  });

  it('will not issue without an audience or beyond the longest lifetime', async () => {
    await expect(issueJwtSvid({ spiffeId: SUB, audience: [], ttlSeconds: 300, key })).rejects.toThrow('aud');
    await expect(issueJwtSvid({ spiffeId: SUB, audience: 'a', ttlSeconds: 86_401, key })).rejects.toThrow(
      'ttl',
    );
  });
});
