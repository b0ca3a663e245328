// Loopback servers for the MCP tool install flow, following the specs on
// their side of the wire:
// - an OAuth authorization server: RFC 8414 metadata; RFC 7591 registration
//   that verifies the software statement as a JWT-SVID of the platform's
//   trust domain (its keys configured out of band, as the SPIFFE
//   client-auth draft asks: here the platform's JWKS URL), addressed to this
//   issuer alone; a client_credentials token endpoint taking the registered
//   agent's SVID as a `jwt-spiffe` assertion;
// - an MCP resource server publishing RFC 9728 metadata at the path-inserted
//   well-known URL of `/mcp`.
// Each has `override`s a test sets to make it lie, fail, stall or flood.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface Answer {
  status: number;
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
  res.writeHead(a.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
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
