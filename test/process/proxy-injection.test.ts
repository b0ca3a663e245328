// The credential proxy's injection clients against real loopback HTTP
// servers answering like the Verifier's Contract C routes, the platform's
// token endpoint, another token endpoint and the RFC 8693 endpoint: what each
// injection method puts on a routed request, how long it keeps it, that
// concurrent calls share one fetch, that a user's exchanged token never
// serves another user, and what the agent gets when a source fails.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASSERTION_JWT_SPIFFE } from '../../base/identity/token-client.ts';
import { InjectionError, type EgressRule, type InjectionContext } from '../../contract/egress.ts';
import {
  createInjector,
  GRANT_TOKEN_EXCHANGE,
  STRIPPED_HEADERS,
  TOKEN_TYPE_JWT,
  type InjectorOptions,
} from '../../proxy/egress/injector.ts';
import { eventually } from '../integration/harness.ts';

const AGENT = 'team.bot';
const GATEWAY_KEY = 'gw-key-of-team.bot';
const MOUNTED_SVID = 'mounted.svid.jwt';

/** What the stand-in servers were asked, and how they answer. */
const state = {
  material: new Map<string, string>(),
  pending: new Set<string>(),
  svidAudiences: new Set<string>(),
  expiresIn: 100,
  exchangeErrors: new Map<string, { status: number; error: string }>(),
  calls: { credential: 0, svid: 0, platformToken: 0, otherToken: 0, exchange: 0 },
  forms: [] as URLSearchParams[],
};
let server: Server;
let base = '';
let closedUrl = '';
const held: ServerResponse[] = [];
/** Answers of `/gated/token`, sent when the test releases them. */
const gated: ServerResponse[] = [];

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function verifierRoute(req: IncomingMessage, res: ServerResponse, body: string): void {
  if (req.headers.authorization !== `Bearer ${GATEWAY_KEY}`)
    return json(res, 403, { detail: 'not this agent' });
  const credential = /^\/v1\/agents\/team\.bot\/egress\/credentials\/([^/]+)$/.exec(req.url ?? '');
  if (credential && req.method === 'GET') {
    state.calls.credential += 1;
    const name = decodeURIComponent(credential[1]!);
    if (state.pending.has(name)) return json(res, 409, { detail: 'pending', code: 'credential_pending' });
    const value = state.material.get(name);
    if (value === undefined) return json(res, 404, { detail: 'no', code: 'credential_not_available' });
    return json(res, 200, { credential: name, service: 'github', type: 'api_key', value });
  }
  if (req.url === '/v1/agents/team.bot/svid' && req.method === 'POST') {
    state.calls.svid += 1;
    const { audience } = JSON.parse(body) as { audience: string };
    if (!state.svidAudiences.has(audience)) return json(res, 422, { code: 'audience_not_permitted' });
    return json(res, 200, { token: `svid-for:${audience}`, expires_at: new Date().toISOString() });
  }
  json(res, 404, { detail: 'no route' });
}

/** The platform's token endpoint (mounted SVID) and another one (a Verifier-issued SVID and a client id). */
function clientCredentialsRoute(url: string, res: ServerResponse, form: URLSearchParams): boolean {
  if (form.get('grant_type') !== 'client_credentials') return false;
  if (form.get('client_assertion_type') !== ASSERTION_JWT_SPIFFE) return false;
  const assertion = form.get('client_assertion');
  if (url === '/oauth/token' && assertion === MOUNTED_SVID) {
    state.calls.platformToken += 1;
    json(res, 200, { access_token: `platform-${state.calls.platformToken}`, expires_in: state.expiresIn });
    return true;
  }
  if (url !== '/other/token' || assertion !== `svid-for:${base}/other`) return false;
  state.calls.otherToken += 1;
  if (form.get('client_id') !== 'client-7') json(res, 401, { error: 'invalid_client' });
  else json(res, 200, { access_token: `other-${state.calls.otherToken}`, expires_in: state.expiresIn });
  return true;
}

/** The RFC 8693 endpoint: a token naming the subject's user and the audience, or a configured refusal. */
function exchangeRoute(res: ServerResponse, form: URLSearchParams): void {
  state.calls.exchange += 1;
  const subject = form.get('subject_token') ?? '';
  const refusal = state.exchangeErrors.get(subject);
  if (refusal) return json(res, refusal.status, { error: refusal.error, error_description: 'refused' });
  const payload = JSON.parse(Buffer.from(subject.split('.')[1] ?? '', 'base64url').toString()) as {
    sub: string;
  };
  json(res, 200, {
    access_token: `tx:${payload.sub}:${form.get('audience')}:${state.calls.exchange}`,
    expires_in: 600,
  });
}

function tokenRoute(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): void {
  state.forms.push(form);
  const url = req.url ?? '';
  if (url === '/slow/token') return void held.push(res);
  if (url === '/gated/token') return void gated.push(res);
  if (clientCredentialsRoute(url, res, form)) return;
  if (url === '/v1/token-exchange' && form.get('grant_type') === GRANT_TOKEN_EXCHANGE)
    return exchangeRoute(res, form);
  json(res, 400, { error: 'invalid_request' });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.headers['content-type'] === 'application/x-www-form-urlencoded') {
        tokenRoute(req, res, new URLSearchParams(body));
      } else verifierRoute(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  state.material = new Map([['github-token', 'ghp-first']]);
  state.pending.clear();
  state.svidAudiences = new Set([`${base}/other`]);
  state.expiresIn = 100;
  state.exchangeErrors.clear();
  state.calls = { credential: 0, svid: 0, platformToken: 0, otherToken: 0, exchange: 0 };
  state.forms = [];
});

function setup(overrides: Partial<InjectorOptions> = {}) {
  const clock = { ms: 1_800_000_000_000 };
  const svidDir = mkdtempSync(join(tmpdir(), 'svid-'));
  writeFileSync(join(svidDir, 'svid.jwt'), `${MOUNTED_SVID}\n`);
  const injector = createInjector({
    verifierUrl: base,
    agentId: AGENT,
    apiKey: GATEWAY_KEY,
    platformTokenUrl: `${base}/oauth/token`,
    tokenExchangeUrl: `${base}/v1/token-exchange`,
    svidDir,
    now: () => clock.ms,
    ...overrides,
  });
  return { clock, svidDir, injector };
}

const rule = (r: Partial<EgressRule> & Pick<EgressRule, 'injectionMethod'>): EgressRule => ({
  destination: 'api.example.com',
  approval: 'auto',
  service: 'example',
  source: 'agent',
  ...r,
});
const SIDECAR = rule({ injectionMethod: 'sidecar', credentialRef: 'github-token', service: 'github' });
const PLATFORM_CC = rule({ injectionMethod: 'client_credentials' });
const OTHER_CC = rule({
  injectionMethod: 'client_credentials',
  destination: '*.other.example',
  clientId: 'client-7',
});
const EXCHANGE = rule({ injectionMethod: 'token_exchange', service: 'calendar' });

const ctx = (subjectToken?: string): InjectionContext => ({
  signal: new AbortController().signal,
  ...(subjectToken ? { subjectToken } : {}),
});
const userToken = (sub: string, exp = 1_900_000_000): string =>
  `e30.${Buffer.from(JSON.stringify({ sub, exp })).toString('base64url')}.sig`;
const bearerOf = async (p: Promise<{ set: Record<string, string> }>): Promise<string | undefined> =>
  (await p).set.authorization;

async function refusal(p: Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InjectionError);
  const { status, code, message } = err as InjectionError;
  return { status, code, message };
}

describe('sidecar injection', () => {
  it('injects the material as a bearer token and strips the agent’s own credential headers', async () => {
    const { injector } = setup();
    const injection = await injector.inject(SIDECAR, ctx());
    expect(injection.set).toEqual({ authorization: 'Bearer ghp-first' });
    expect(injection.strip).toEqual(STRIPPED_HEADERS);
    expect(injection.strip).toEqual(
      expect.arrayContaining(['authorization', 'proxy-authorization', 'x-api-key', 'cookie']),
    );
  });

  it('keeps the material 60 s, reads it again at once after invalidate', async () => {
    const { injector, clock } = setup();
    await injector.inject(SIDECAR, ctx());
    state.material.set('github-token', 'ghp-second');
    clock.ms += 40_000;
    expect(await bearerOf(injector.inject(SIDECAR, ctx()))).toBe('Bearer ghp-first');
    expect(state.calls.credential).toBe(1);
    injector.invalidate(SIDECAR, ctx());
    expect(await bearerOf(injector.inject(SIDECAR, ctx()))).toBe('Bearer ghp-second');
    expect(state.calls.credential).toBe(2);
  });

  it('stops injecting a credential the Verifier no longer gives, but outlives a Verifier outage', async () => {
    const { injector, clock } = setup();
    await injector.inject(SIDECAR, ctx());
    state.pending.add('github-token');
    clock.ms += 50_000;
    expect(await bearerOf(injector.inject(SIDECAR, ctx()))).toBe('Bearer ghp-first');
    state.pending.clear();
    state.material.delete('github-token');
    expect(await refusal(injector.inject(SIDECAR, ctx()))).toMatchObject({
      status: 403,
      code: 'credential_not_available',
    });
  });

  it('maps the Verifier’s answers: pending 503, unreachable 502, refused key 502', async () => {
    state.pending.add('github-token');
    expect(await refusal(setup().injector.inject(SIDECAR, ctx()))).toMatchObject({
      status: 503,
      code: 'credential_pending',
    });
    const down = setup({ verifierUrl: closedUrl }).injector;
    expect(await refusal(down.inject(SIDECAR, ctx()))).toMatchObject({
      status: 502,
      code: 'verifier_unreachable',
    });
    const wrongKey = setup({ apiKey: 'another-key' }).injector;
    expect(await refusal(wrongKey.inject(SIDECAR, ctx()))).toMatchObject({
      status: 502,
      code: 'verifier_refused',
    });
  });
});

describe('client_credentials injection', () => {
  it('gets a token from the platform’s endpoint with the mounted JWT-SVID and keeps it', async () => {
    const { injector } = setup();
    expect(await bearerOf(injector.inject(PLATFORM_CC, ctx()))).toBe('Bearer platform-1');
    expect(await bearerOf(injector.inject(PLATFORM_CC, ctx()))).toBe('Bearer platform-1');
    expect(state.calls.platformToken).toBe(1);
    expect(state.forms[0]?.has('client_id')).toBe(false);
  });

  it('refreshes at 80 % of min(expires_in, ttl_seconds)', async () => {
    const { injector, clock } = setup();
    await injector.inject(PLATFORM_CC, ctx());
    clock.ms += 79_999;
    expect(await bearerOf(injector.inject(PLATFORM_CC, ctx()))).toBe('Bearer platform-1');
    clock.ms += 1;
    expect(await bearerOf(injector.inject(PLATFORM_CC, ctx()))).toBe('Bearer platform-2');
    const short = { ...PLATFORM_CC, ttlSeconds: 10 };
    expect(await bearerOf(injector.inject(short, ctx()))).toBe('Bearer platform-3');
    clock.ms += 8_000;
    expect(await bearerOf(injector.inject(short, ctx()))).toBe('Bearer platform-4');
  });

  it('shares one token fetch among 20 concurrent calls', async () => {
    const { injector } = setup();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => bearerOf(injector.inject(PLATFORM_CC, ctx()))),
    );
    expect(new Set(all)).toEqual(new Set(['Bearer platform-1']));
    expect(state.calls.platformToken).toBe(1);
  });

  it('lets a caller that goes away leave while the shared fetch still serves the others', async () => {
    const { injector } = setup({ platformTokenUrl: `${base}/gated/token` });
    const leaving = new AbortController();
    const left = injector.inject(PLATFORM_CC, { signal: leaving.signal });
    const staying = injector.inject(PLATFORM_CC, ctx());
    await eventually(() => (gated.length === 1 ? true : undefined), 'the token request');
    leaving.abort();
    expect(await refusal(left)).toMatchObject({ code: 'aborted' });
    json(gated.pop()!, 200, { access_token: 'gated-1', expires_in: 100 });
    expect(await bearerOf(staying)).toBe('Bearer gated-1');
    expect(await refusal(injector.inject(PLATFORM_CC, { signal: leaving.signal }))).toMatchObject({
      code: 'aborted',
    });
  });

  it('re-reads the mounted JWT-SVID when it changes', async () => {
    const { injector, svidDir } = setup();
    await injector.inject(PLATFORM_CC, ctx());
    writeFileSync(join(svidDir, 'svid.jwt'), 'renewed.svid.jwt');
    injector.invalidate(PLATFORM_CC, ctx());
    expect(await refusal(injector.inject(PLATFORM_CC, ctx()))).toMatchObject({
      status: 502,
      code: 'token_endpoint_refused',
    });
    expect(state.forms.at(-1)?.get('client_assertion')).toBe('renewed.svid.jwt');
  });

  it('asks the Verifier for a JWT-SVID for another token endpoint and sends the rule’s client_id', async () => {
    const { injector } = setup();
    const other = { ...OTHER_CC, tokenEndpoint: `${base}/other/token`, audience: `${base}/other` };
    expect(await bearerOf(injector.inject(other, ctx()))).toBe('Bearer other-1');
    expect(state.calls.svid).toBe(1);
    expect(state.forms[0]?.get('client_id')).toBe('client-7');
    const notPermitted = { ...other, audience: `${base}/elsewhere` };
    expect(await refusal(injector.inject(notPermitted, ctx()))).toMatchObject({
      status: 403,
      code: 'audience_not_permitted',
    });
  });

  it('answers 504 when the token endpoint does not answer in time and 502 when it is unreachable', async () => {
    const { injector } = setup({ timeoutMs: 200, platformTokenUrl: `${base}/slow/token` });
    expect(await refusal(injector.inject(PLATFORM_CC, ctx()))).toMatchObject({
      status: 504,
      code: 'token_endpoint_timeout',
    });
    const down = setup({ platformTokenUrl: `${closedUrl}/oauth/token` }).injector;
    expect(await refusal(down.inject(PLATFORM_CC, ctx()))).toMatchObject({
      status: 502,
      code: 'token_endpoint_unreachable',
    });
  });
});

describe('token_exchange injection', () => {
  it('exchanges the user’s token with the mounted JWT-SVID as actor and the rule’s service as audience', async () => {
    const { injector } = setup();
    const alice = userToken('alice');
    expect(await bearerOf(injector.inject(EXCHANGE, ctx(alice)))).toBe('Bearer tx:alice:calendar:1');
    const form = state.forms[0]!;
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: GRANT_TOKEN_EXCHANGE,
      subject_token: alice,
      subject_token_type: TOKEN_TYPE_JWT,
      actor_token: MOUNTED_SVID,
      actor_token_type: TOKEN_TYPE_JWT,
      audience: 'calendar',
    });
  });

  it('keeps a token per user: two users, two exchanges, and neither gets the other’s token', async () => {
    const { injector } = setup();
    const [alice, bob] = [userToken('alice'), userToken('bob')];
    const answers = await Promise.all([
      bearerOf(injector.inject(EXCHANGE, ctx(alice))),
      bearerOf(injector.inject(EXCHANGE, ctx(bob))),
      bearerOf(injector.inject(EXCHANGE, ctx(alice))),
      bearerOf(injector.inject(EXCHANGE, ctx(bob))),
    ]);
    expect(state.calls.exchange).toBe(2);
    expect(answers[0]).toMatch(/^Bearer tx:alice:/);
    expect(answers[2]).toBe(answers[0]);
    expect(answers[1]).toMatch(/^Bearer tx:bob:/);
    expect(answers[3]).toBe(answers[1]);
    expect(await bearerOf(injector.inject({ ...EXCHANGE, service: 'mail' }, ctx(alice)))).toMatch(
      /^Bearer tx:alice:mail:/,
    );
    injector.invalidate(EXCHANGE, ctx(alice));
    expect(await bearerOf(injector.inject(EXCHANGE, ctx(bob)))).toBe(answers[1]);
    expect(await bearerOf(injector.inject(EXCHANGE, ctx(alice)))).toMatch(/^Bearer tx:alice:calendar:4$/);
  });

  it('keeps an exchanged token no longer than the user’s own token lives', async () => {
    const { injector, clock } = setup();
    const alice = userToken('alice', clock.ms / 1000 + 10);
    await injector.inject(EXCHANGE, ctx(alice));
    clock.ms += 8_000;
    await injector.inject(EXCHANGE, ctx(alice));
    expect(state.calls.exchange).toBe(2);
  });

  it('refuses a call without a user token with 403 user_token_required', async () => {
    const { injector } = setup();
    expect(await refusal(injector.inject(EXCHANGE, ctx()))).toMatchObject({
      status: 403,
      code: 'user_token_required',
    });
    expect(state.calls.exchange).toBe(0);
  });

  it.each([
    ['invalid_grant', 400, 403],
    ['invalid_target', 400, 403],
    ['invalid_scope', 400, 403],
    ['unauthorized_client', 400, 403],
    ['invalid_request', 400, 502],
    ['temporarily_unavailable', 503, 502],
  ])('maps the exchange’s %s to %s → %s, never showing the tokens', async (error, answered, status) => {
    const { injector } = setup();
    const carol = userToken('carol');
    state.exchangeErrors.set(carol, { status: answered, error });
    const got = await refusal(injector.inject(EXCHANGE, ctx(carol)));
    expect(got.status).toBe(status);
    expect(got.code).toBe(status === 403 ? error : 'token_exchange_failed');
    expect(got.message).not.toContain(carol);
    expect(got.message).not.toContain(MOUNTED_SVID);
  });

  it('does not repeat an error code that is not one into its message', async () => {
    const { injector } = setup();
    const dave = userToken('dave');
    state.exchangeErrors.set(dave, { status: 400, error: 'Bearer secret-ish\ntext' });
    const got = await refusal(injector.inject(EXCHANGE, ctx(dave)));
    expect(got).toMatchObject({ status: 502, code: 'token_exchange_failed' });
    expect(got.message).not.toContain('secret-ish');
  });

  it('answers 502 when the exchange endpoint is unreachable and 504 when it does not answer in time', async () => {
    const down = setup({ tokenExchangeUrl: `${closedUrl}/v1/token-exchange` }).injector;
    expect(await refusal(down.inject(EXCHANGE, ctx(userToken('alice'))))).toMatchObject({
      status: 502,
      code: 'token_endpoint_unreachable',
    });
    const slow = setup({ timeoutMs: 200, tokenExchangeUrl: `${base}/slow/token` }).injector;
    expect(await refusal(slow.inject(EXCHANGE, ctx(userToken('alice'))))).toMatchObject({
      status: 504,
      code: 'token_endpoint_timeout',
    });
  });
});
