// Discovery of an MCP server's authorization, pure (decision 157): where its
// RFC 9728 protected-resource metadata and its authorization server's RFC 8414
// metadata are, and what makes either document acceptable. A document that
// lies (another resource, another issuer, an endpoint missing or not https)
// is refused with the reason; nothing here fetches.

/** Why a metadata document was refused; the reason is safe to show (it holds no credential). */
export class MetadataProblem extends Error {
  constructor(
    readonly code: 'mcp_metadata_invalid' | 'as_metadata_invalid',
    message: string,
  ) {
    super(message);
    this.name = 'MetadataProblem';
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on a loopback host (test servers, RFC 8252 §7.3's exception); never credentials in the URL. */
export function secureUrlProblem(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (u.username || u.password) return 'carries credentials';
  if (u.hash) return 'has a fragment';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return undefined;
  return 'must use https (http only on a loopback host)';
}

/** `https://h/a/` and `https://h/a` name the same resource; RFC 9728 compares otherwise exactly. */
export const sameResource = (a: string, b: string): boolean => a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** RFC 8615 well-known URLs of `url` for `suffix`: the path-inserted form first when it has a path, then the root. */
function wellKnownUrls(url: string, suffix: string): string[] {
  const u = new URL(url);
  const path = u.pathname.replace(/\/$/, '');
  const root = `${u.origin}/.well-known/${suffix}`;
  return path ? [`${root}${path}`, root] : [root];
}

/** Where RFC 9728 metadata of the MCP server at `serverUrl` may be. */
export const protectedResourceUrls = (serverUrl: string): string[] =>
  wellKnownUrls(serverUrl, 'oauth-protected-resource');

/** RFC 8414 §3.1: the metadata URL of `issuer` (path inserted after the well-known segment). */
export const authorizationServerUrl = (issuer: string): string =>
  wellKnownUrls(issuer, 'oauth-authorization-server')[0] ?? '';

export interface ProtectedResource {
  resource: string;
  authorizationServers: string[];
  scopes: string[];
}

type Doc = Record<string, unknown>;

const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(doc: Doc, key: string, max: number): string[] | undefined {
  const v = doc[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > max || v.some((x) => typeof x !== 'string' || x.length > 2048))
    return undefined;
  return v as string[];
}

function refuseInsecure(code: MetadataProblem['code'], what: string, values: string[]): void {
  for (const v of values) {
    const problem = secureUrlProblem(v);
    if (problem) throw new MetadataProblem(code, `${what} ${JSON.stringify(v.slice(0, 200))} ${problem}`);
  }
}

/** The RFC 9728 document of `serverUrl`, checked: its `resource` is the server, its authorization servers secure. */
export function parseProtectedResource(doc: unknown, serverUrl: string): ProtectedResource {
  const bad = (m: string) => new MetadataProblem('mcp_metadata_invalid', `protected-resource metadata: ${m}`);
  if (!isDoc(doc)) throw bad('not a JSON object');
  if (typeof doc.resource !== 'string') throw bad('no resource');
  if (!sameResource(doc.resource, serverUrl))
    throw bad(`resource ${JSON.stringify(doc.resource.slice(0, 200))} is not the server ${serverUrl}`);
  const authorizationServers = stringList(doc, 'authorization_servers', 16);
  if (!authorizationServers || authorizationServers.length === 0)
    throw bad('authorization_servers must list at least one issuer');
  refuseInsecure('mcp_metadata_invalid', 'authorization server', authorizationServers);
  const scopes = stringList(doc, 'scopes_supported', 64);
  if (!scopes) throw bad('scopes_supported must be a list of strings');
  return { resource: doc.resource, authorizationServers, scopes };
}

export interface AuthorizationServer {
  issuer: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
}

/**
 * The RFC 8414 document of `issuer`, checked: the same issuer exactly (§3.3),
 * a token and a registration endpoint, both secure, and client_credentials
 * among its grants when it lists them.
 */
export function parseAuthorizationServer(doc: unknown, issuer: string): AuthorizationServer {
  const bad = (m: string) =>
    new MetadataProblem('as_metadata_invalid', `authorization server metadata: ${m}`);
  if (!isDoc(doc)) throw bad('not a JSON object');
  if (doc.issuer !== issuer)
    throw bad(`issuer ${JSON.stringify(String(doc.issuer).slice(0, 200))} is not ${issuer}`);
  const { token_endpoint: tokenEndpoint, registration_endpoint: registrationEndpoint } = doc;
  if (typeof tokenEndpoint !== 'string') throw bad('no token_endpoint');
  if (typeof registrationEndpoint !== 'string')
    throw bad('no registration_endpoint: dynamic client registration is not offered');
  refuseInsecure('as_metadata_invalid', 'endpoint', [tokenEndpoint, registrationEndpoint]);
  const grants = stringList(doc, 'grant_types_supported', 32);
  if (!grants) throw bad('grant_types_supported must be a list of strings');
  if (grants.length > 0 && !grants.includes('client_credentials'))
    throw bad('client_credentials is not among grant_types_supported');
  return { issuer, tokenEndpoint, registrationEndpoint };
}
