import { describe, expect, it } from 'vitest';
import { MAX_ACCESS_TOKEN_TTL_SECONDS, issueAccessToken, verifyAccessToken } from './access-token.ts';
import { issueJwtSvid } from './jwt-svid.ts';
import { generateTrustKey, signingKeyOf, trustBundle } from './trust-keys.ts';

const ISSUER = 'https://verifier.platform.local';

async function keys() {
  const stored = await generateTrustKey('platform.local', Date.now(), 86_400_000);
  const key = (await signingKeyOf([stored]))!;
  return { key, bundle: trustBundle('platform.local', [stored], 300).jwt_authorities };
}

describe('access tokens', () => {
  it('issues an at+jwt with the RFC 9068 claims and act, which the bundle verifies', async () => {
    const { key, bundle } = await keys();
    const issued = await issueAccessToken({
      issuer: ISSUER,
      subject: 'vera@example.com',
      audience: 'https://slack.example.com',
      scope: 'chat:read chat:write',
      clientId: 'agent-team-bot',
      actor: 'spiffe://platform.local/agent/team.bot',
      ttlSeconds: 600,
      key,
    });
    expect(issued.expires_in).toBe(600);
    const claims = await verifyAccessToken(issued.access_token, {
      issuer: ISSUER,
      bundle,
      audience: 'https://slack.example.com',
    });
    expect(claims).toMatchObject({
      iss: ISSUER,
      sub: 'vera@example.com',
      scope: 'chat:read chat:write',
      client_id: 'agent-team-bot',
      act: { sub: 'spiffe://platform.local/agent/team.bot' },
      jti: issued.jti,
    });
  });

  it('refuses an SVID presented as an access token, another issuer, another audience, an expired one and a foreign key', async () => {
    const { key, bundle } = await keys();
    const base = {
      issuer: ISSUER,
      subject: 's',
      audience: 'a',
      scope: '',
      clientId: 'c',
      ttlSeconds: 60,
      key,
    };
    const svid = await issueJwtSvid({
      spiffeId: 'spiffe://platform.local/agent/x.y',
      audience: 'a',
      ttlSeconds: 60,
      key,
    });
    await expect(verifyAccessToken(svid, { issuer: ISSUER, bundle })).rejects.toThrow();
    const token = (await issueAccessToken(base)).access_token;
    await expect(verifyAccessToken(token, { issuer: 'https://other', bundle })).rejects.toThrow(/iss/);
    await expect(verifyAccessToken(token, { issuer: ISSUER, bundle, audience: 'b' })).rejects.toThrow(/aud/);
    const old = (await issueAccessToken({ ...base, now: Math.floor(Date.now() / 1000) - 3600 })).access_token;
    await expect(verifyAccessToken(old, { issuer: ISSUER, bundle })).rejects.toThrow(/exp/);
    const other = await keys();
    await expect(verifyAccessToken(token, { issuer: ISSUER, bundle: other.bundle })).rejects.toThrow();
    await expect(issueAccessToken({ ...base, ttlSeconds: MAX_ACCESS_TOKEN_TTL_SECONDS + 1 })).rejects.toThrow(
      /ttl/,
    );
  });
});
