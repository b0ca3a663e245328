import { describe, expect, it } from 'vitest';
import {
  authorizationUrl,
  challengeOf,
  newState,
  newVerifier,
  readTokenAnswer,
  sessionSecretName,
  STATE_RE,
  codeForm,
  refreshForm,
  clientAuth,
} from './oauth-flow.ts';
import type { OAuthProvider } from './oauth-providers.ts';

const provider: OAuthProvider = {
  service: 'docs',
  display_name: 'Docs',
  authorization_endpoint: 'https://as.example.com/authorize?tenant=1',
  token_endpoint: 'https://as.example.com/token',
  client_id: 'client one',
  scopes: ['a', 'b'],
  redirect_uri: 'https://platform.example.com/v1/scoped-credentials/oauth/callback',
};

describe('PKCE and state', () => {
  it('computes the RFC 7636 appendix B challenge', () => {
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes unguessable states and verifiers of 43 characters, each new', () => {
    const states = new Set(Array.from({ length: 50 }, newState));
    expect(states.size).toBe(50);
    for (const s of states) expect(s).toMatch(STATE_RE);
    expect(newVerifier()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('names a session Secret by a hash: a valid name that does not contain the state', () => {
    const state = newState();
    const name = sessionSecretName(state);
    expect(name).toMatch(/^platform-oauth-session-[a-f0-9]{40}$/);
    expect(name).not.toContain(state);
    expect(sessionSecretName(state)).toBe(name);
  });
});

describe('authorizationUrl and the token forms', () => {
  it('keeps the endpoint query and adds the code flow parameters, never the verifier', () => {
    const u = new URL(authorizationUrl(provider, 'S', 'V'));
    expect(u.searchParams.get('tenant')).toBe('1');
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client one',
      redirect_uri: provider.redirect_uri,
      scope: 'a b',
      state: 'S',
      code_challenge: challengeOf('V'),
      code_challenge_method: 'S256',
    });
    expect(u.toString()).not.toContain('=V&');
  });

  it('authenticates a confidential client with Basic (form-encoded parts), a public one with client_id only', () => {
    expect(codeForm(provider, 'C', 'V')).toMatchObject({
      grant_type: 'authorization_code',
      code: 'C',
      code_verifier: 'V',
      redirect_uri: provider.redirect_uri,
    });
    expect(refreshForm(provider, 'R')).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'R',
      client_id: 'client one',
    });
    const basic = clientAuth(provider, 's:cret').authorization ?? '';
    expect(Buffer.from(basic.slice(6), 'base64').toString()).toBe('client+one:s%3Acret');
    expect(clientAuth(provider, undefined)).toEqual({});
  });
});

describe('readTokenAnswer', () => {
  const now = 1_000_000;
  it('reads the token, refresh token and expiry', () => {
    expect(
      readTokenAnswer(
        200,
        { access_token: 't', refresh_token: 'r', expires_in: 60, token_type: 'bearer' },
        now,
      ),
    ).toEqual({
      ok: true,
      tokens: { access_token: 't', refresh_token: 'r', expires_at: now + 60_000 },
    });
  });

  it.each([
    [503, { error: 'temporarily_unavailable' }, 'token_endpoint_failed', '503 (temporarily_unavailable)'],
    [
      400,
      { error: 'invalid_grant', error_description: 'secret words' },
      'token_refused',
      '400 (invalid_grant)',
    ],
    [400, { error: 'has spaces <b>' }, 'token_refused', 'answered 400'],
    [200, undefined, 'token_answer_invalid', 'no access token'],
    [200, { access_token: 't', token_type: 'mac' }, 'token_answer_invalid', 'another type'],
  ])('refuses %i %j as %s', (status, body, code, words) => {
    const a = readTokenAnswer(status, body, now);
    expect(a).toMatchObject({ ok: false, code });
    if (a.ok) return;
    expect(a.message).toContain(words);
    expect(a.message).not.toContain('secret words');
  });
});
