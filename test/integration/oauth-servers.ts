// Loopback servers for the MCP tool install flow, following the specs on
// their side of the wire:
// - an OAuth authorization server: RFC 8414 metadata; RFC 7591 registration
//   that verifies the software statement as a JWT-SVID of the platform's
//   trust domain (its keys configured out of band, as the SPIFFE
//   client-auth draft asks: here the platform's JWKS URL), addressed to this
//   issuer alone; a client_credentials token endpoint taking the registered
//   agent's SVID as a `jwt-spiffe` assertion;
// - an authorization-code server with PKCE for the OAuth connect of scoped
//   credentials (startCodeServer): /authorize redirects back with a code
//   (or an error), /token checks the client's Basic auth, the redirect URI
//   and the code verifier against the challenge, and issues set tokens;
// - an MCP resource server publishing RFC 9728 metadata at the path-inserted
//   well-known URL of `/mcp`.
// Each has `override`s a test sets to make it lie, fail, stall or flood.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface Answer {
  status: number;
  /** A redirect's target (sent as `location`). */
  location?: string;
  body?: unknown;
  /** Sent as is (a huge or non-JSON body). */
  raw?: string;
}

type Handler = (req: IncomingMessage, body: string) => Promise<Answer> | Answer;

export interface LoopbackServer {
  origin: string;
  /** Requests seen, by path. */
  hits: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, a: Answer): void {
  const text = a.raw ?? (a.body === undefined ? '' : JSON.stringify(a.body));
  const location = a.location ? { location: a.location } : {};
  res.writeHead(a.status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...location });
  res.end(text);
}

async function serve(handler: Handler): Promise<LoopbackServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    readBody(req)
      .then((body) => handler(req, body))
      .then(
        (a) => send(res, a),
        (err: unknown) => send(res, { status: 500, body: { error: String(err) } }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface AuthorizationServerFixture extends LoopbackServer {
  issuer: string;
  /** client_id → the SPIFFE ID it was registered for. */
  clients: Map<string, string>;
  /** Set to replace the metadata document or the registration answer. */
  override: { metadata?: Answer; register?: Answer };
}

const JWT_SPIFFE = 'urn:ietf:params:oauth:client-assertion-type:jwt-spiffe';

export async function startAuthorizationServer(o: {
  trustJwksUrl: string;
  trustDomain: string;
}): Promise<AuthorizationServerFixture> {
  const jwks = createRemoteJWKSet(new URL(o.trustJwksUrl));
  const override: AuthorizationServerFixture['override'] = {};
  const clients = new Map<string, string>();
  let issuer = '';
  const svidSubject = async (token: string): Promise<string> => {
    const { payload } = await jwtVerify(token, jwks, { audience: issuer });
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (aud.length !== 1) throw new Error('aud must name this issuer alone');
    if (!payload.sub?.startsWith(`spiffe://${o.trustDomain}/`)) throw new Error('not of the trust domain');
    return payload.sub;
  };
  const register = async (body: string): Promise<Answer> => {
    if (override.register) return override.register;
    const meta = JSON.parse(body) as Record<string, unknown>;
    const refused = (d: string): Answer => ({
      status: 400,
      body: { error: 'invalid_client_metadata', error_description: d },
    });
    if (meta.token_endpoint_auth_method !== 'private_key_jwt') return refused('auth method');
    if (!(meta.grant_types as string[] | undefined)?.includes('client_credentials')) return refused('grants');
    let spiffeId: string;
    try {
      spiffeId = await svidSubject(String(meta.software_statement));
    } catch {
      return { status: 400, body: { error: 'invalid_software_statement' } };
    }
    const clientId = `client-${randomBytes(6).toString('hex')}`;
    clients.set(clientId, spiffeId);
    return {
      status: 201,
      body: { ...meta, software_statement: undefined, client_id: clientId, client_id_issued_at: 1 },
    };
  };
  const token = async (body: string): Promise<Answer> => {
    const form = new URLSearchParams(body);
    const invalid: Answer = { status: 401, body: { error: 'invalid_client' } };
    if (form.get('grant_type') !== 'client_credentials')
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    if (form.get('client_assertion_type') !== JWT_SPIFFE) return invalid;
    const sub = await svidSubject(form.get('client_assertion') ?? '').catch(() => undefined);
    const clientId = form.get('client_id') ?? '';
    if (!sub || clients.get(clientId) !== sub) return invalid;
    return {
      status: 200,
      body: { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300 },
    };
  };
  const server = await serve((req, body) => {
    if (req.url === '/.well-known/oauth-authorization-server')
      return override.metadata ?? { status: 200, body: metadataOf(issuer) };
    if (req.method === 'POST' && req.url === '/register') return register(body);
    if (req.method === 'POST' && req.url === '/token') return token(body);
    return { status: 404, body: { error: 'not_found' } };
  });
  issuer = server.origin;
  return Object.assign(server, { issuer, clients, override });
}

export function metadataOf(issuer: string): Record<string, unknown> {
  return {
    issuer,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    client_assertion_types_supported: [JWT_SPIFFE],
  };
}

export interface ResourceServerFixture extends LoopbackServer {
  /** The MCP endpoint: a catalog entry's serverUrl. */
  serverUrl: string;
  /** Set to replace the RFC 9728 answer (or to make it stall first). */
  override: { metadata?: Answer; delayMs?: number };
}

/** An MCP server whose RFC 9728 metadata names `issuer` (none at all when `issuer` is undefined). */
export async function startResourceServer(issuer: string | undefined): Promise<ResourceServerFixture> {
  const override: ResourceServerFixture['override'] = {};
  let serverUrl = '';
  const server = await serve(async (req) => {
    if (override.delayMs) await new Promise((r) => setTimeout(r, override.delayMs));
    if (req.url !== '/.well-known/oauth-protected-resource/mcp' || issuer === undefined)
      return override.metadata ?? { status: 404, body: { error: 'not_found' } };
    return (
      override.metadata ?? {
        status: 200,
        body: { resource: serverUrl, authorization_servers: [issuer], scopes_supported: ['tools.read'] },
      }
    );
  });
  serverUrl = `${server.origin}/mcp`;
  return Object.assign(server, { serverUrl, override });
}

export interface CodeServerFixture extends LoopbackServer {
  /** Registered redirect URI of the one client (set before the flow runs). */
  client: { id: string; secret: string; redirectUri: string };
  /** The tokens the next code is exchanged for. */
  issue: { accessToken: string; refreshToken: string; expiresIn: number };
  /** The tokens issued last (a refresh must present this refresh token). */
  issued: { accessToken: string; refreshToken: string; expiresIn: number };
  /** Make the authorization endpoint deny, the token endpoint fail, stall or flood. */
  override: { deny?: string; token?: Answer; tokenDelayMs?: number };
  /** What the token endpoint was last sent (form parameters and the Basic header). */
  lastTokenRequest?: { form: Record<string, string>; authorization: string };
}

interface PendingCode {
  challenge: string;
  redirectUri: string;
  clientId: string;
}

function authorize(
  fx: CodeServerFixture,
  codes: Map<string, PendingCode>,
  url: URL,
): Answer & { location?: string } {
  const q = url.searchParams;
  const ok =
    q.get('response_type') === 'code' &&
    q.get('client_id') === fx.client.id &&
    q.get('redirect_uri') === fx.client.redirectUri &&
    q.get('code_challenge_method') === 'S256' &&
    /^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '');
  if (!ok) return { status: 400, body: { error: 'invalid_request' } };
  const back = new URL(fx.client.redirectUri);
  back.searchParams.set('state', q.get('state') ?? '');
  if (fx.override.deny) {
    back.searchParams.set('error', fx.override.deny);
    back.searchParams.set('error_description', 'the user said no');
  } else {
    const code = `code-${randomBytes(12).toString('hex')}`;
    codes.set(code, {
      challenge: q.get('code_challenge') ?? '',
      redirectUri: fx.client.redirectUri,
      clientId: fx.client.id,
    });
    back.searchParams.set('code', code);
  }
  return { status: 302, location: back.toString() };
}

/** The code is one this server issued (once), for this redirect URI, and the verifier matches its challenge. */
function codeValid(codes: Map<string, PendingCode>, form: Record<string, string>): boolean {
  const pending = codes.get(form.code ?? '');
  codes.delete(form.code ?? '');
  const challenge = createHash('sha256')
    .update(form.code_verifier ?? '')
    .digest('base64url');
  return (
    form.grant_type === 'authorization_code' &&
    pending !== undefined &&
    pending.redirectUri === form.redirect_uri &&
    pending.challenge === challenge
  );
}

async function exchange(
  fx: CodeServerFixture,
  codes: Map<string, PendingCode>,
  req: IncomingMessage,
  body: string,
): Promise<Answer> {
  const form = Object.fromEntries(new URLSearchParams(body));
  fx.lastTokenRequest = { form, authorization: req.headers.authorization ?? '' };
  if (fx.override.tokenDelayMs) await new Promise((r) => setTimeout(r, fx.override.tokenDelayMs));
  if (fx.override.token) return fx.override.token;
  const expected = `Basic ${Buffer.from(`${fx.client.id}:${fx.client.secret}`).toString('base64')}`;
  if (req.headers.authorization !== expected) return { status: 401, body: { error: 'invalid_client' } };
  // The refresh grant (RFC 6749 §6): the refresh token issued last, for the tokens set in `issue`.
  const refresh = form.grant_type === 'refresh_token';
  const valid = refresh ? form.refresh_token === fx.issued.refreshToken : codeValid(codes, form);
  if (!valid) return { status: 400, body: { error: 'invalid_grant' } };
  fx.issued = { ...fx.issue };
  const { accessToken, refreshToken, expiresIn } = fx.issue;
  return {
    status: 200,
    body: {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: expiresIn,
      token_type: 'Bearer',
    },
  };
}

/** An authorization-code server with PKCE (S256) and one confidential client, as a provider would run it. */
export async function startCodeServer(): Promise<CodeServerFixture> {
  const codes = new Map<string, PendingCode>();
  const fx = {
    client: {
      id: 'platform-test-client',
      secret: `client-secret-${randomBytes(8).toString('hex')}`,
      redirectUri: '',
    },
    issue: { accessToken: '', refreshToken: '', expiresIn: 3600 },
    issued: { accessToken: '', refreshToken: '', expiresIn: 0 },
    override: {},
  } as CodeServerFixture;
  const server = await serve((req, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/authorize') return authorize(fx, codes, url);
    if (req.method === 'POST' && url.pathname === '/token') return exchange(fx, codes, req, body);
    return { status: 404, body: { error: 'not_found' } };
  });
  return Object.assign(fx, server);
}
