// Which auditors the webhook can wire into a pod: the built-in catalog (fixed
// ports from `auditors/catalog/`), third-party sidecars from the registry file
// or from sidecar AuditorRegistrations (an image and the port it listens on,
// default 8080, spec: Auditor contract), and in-cluster or external
// AuditorRegistrations, which get no sidecar: the gateway calls their endpoint.
import { BUILTIN_CATALOG_ENTRIES } from '../../auditors/catalog/index.ts';
import { PORT } from '../constants.ts';

export interface AuditorImage {
  id: string;
  image: string;
  /** The port the auditor registered; built-ins keep theirs, others may be moved. */
  port: number;
  builtin: boolean;
  /** Container args; built-ins run `platform run auditor <id>`. */
  args?: string[];
  /** Set for an in-cluster or external auditor: no sidecar, the gateway calls this URL. */
  endpoint?: string;
}

export type AuditorDirectory = ReadonlyMap<string, AuditorImage>;

export interface ThirdPartyAuditor {
  id: string;
  image: string;
  port?: number;
}

/** Built-in ports by id, read from the auditor catalog entries. */
export function builtinPorts(): Map<string, number> {
  return new Map(BUILTIN_CATALOG_ENTRIES.map((e) => [e.id, e.defaultPort]));
}

/** The directory: every built-in on `platformImage`, then the registered third-party auditors. */
export function buildDirectory(
  platformImage: string,
  thirdParty: readonly ThirdPartyAuditor[] = [],
): AuditorDirectory {
  const dir = new Map<string, AuditorImage>();
  for (const [id, port] of builtinPorts()) {
    dir.set(id, { id, image: platformImage, port, builtin: true, args: ['run', 'auditor', id] });
  }
  for (const a of thirdParty) {
    if (dir.get(a.id)?.builtin) continue; // a registration cannot shadow a built-in
    dir.set(a.id, { id: a.id, image: a.image, port: a.port ?? PORT.thirdPartyDefault, builtin: false });
  }
  return dir;
}

/** The first bad field of a registry entry as `field: expectation`, or ''. */
function thirdPartyProblem(e: Partial<ThirdPartyAuditor>): string {
  if (typeof e.id !== 'string' || !/^[a-z0-9]([-a-z0-9]{0,48}[a-z0-9])?$/.test(e.id))
    return 'id: expected a DNS label of at most 50 characters';
  if (typeof e.image !== 'string' || e.image === '') return 'image: expected an image reference';
  const validPort = e.port === undefined || (Number.isInteger(e.port) && e.port > 0 && e.port < 65536);
  return validPort ? '' : 'port: expected a port number';
}

/** Parses the registry file (JSON array of `{id, image, port?}`); returns the problems found. */
export function parseThirdParty(text: string): { auditors: ThirdPartyAuditor[]; problems: string[] } {
  const problems: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { auditors: [], problems: [`not JSON: ${(err as Error).message}`] };
  }
  if (!Array.isArray(raw)) return { auditors: [], problems: ['expected a JSON array of {id, image, port?}'] };
  const auditors: ThirdPartyAuditor[] = [];
  raw.forEach((entry: unknown, i) => {
    const e = (entry ?? {}) as Partial<ThirdPartyAuditor>;
    const problem = thirdPartyProblem(e);
    if (problem) problems.push(`[${i}].${problem}`);
    else auditors.push({ id: e.id!, image: e.image!, ...(e.port !== undefined ? { port: e.port } : {}) });
  });
  return { auditors, problems };
}

/** What the directory needs of an AuditorRegistration (its spec, as stored). */
export interface RegisteredAuditor {
  auditorId: string;
  deploymentMode: 'sidecar' | 'in-cluster' | 'external';
  endpoint?: string;
  image?: string;
  imageDigest?: string;
  defaultPort?: number;
  auth?: { type: 'none' | 'mtls' | 'api_key' };
}

/** The image reference a sidecar registration runs: pinned by its digest when it states one. */
function sidecarImage(r: RegisteredAuditor): string {
  const image = r.image ?? '';
  if (!r.imageDigest || image.includes('@')) return image;
  return `${image}@${r.imageDigest}`;
}

/**
 * The directory entry of a registration, or why it cannot be wired. Its
 * `workspaces` limit who may change it, not who may use it (decision 81). A
 * remote auditor that needs mTLS or an API key is not wired yet: the injected
 * gateway holds no client certificate or key for it.
 */
export function registeredEntry(r: RegisteredAuditor): { entry?: AuditorImage; problem?: string } {
  return r.deploymentMode === 'sidecar' ? sidecarEntry(r) : remoteEntry(r);
}

function sidecarEntry(r: RegisteredAuditor): { entry?: AuditorImage; problem?: string } {
  if (!r.image) return { problem: `auditor ${r.auditorId} is a sidecar registration without an image` };
  const port = r.defaultPort ?? PORT.thirdPartyDefault;
  return { entry: { id: r.auditorId, image: sidecarImage(r), port, builtin: false } };
}

function remoteEntry(r: RegisteredAuditor): { entry?: AuditorImage; problem?: string } {
  const id = r.auditorId;
  if (!r.endpoint) return { problem: `auditor ${id} (${r.deploymentMode}) has no endpoint` };
  const auth = r.auth?.type ?? 'none';
  if (auth !== 'none')
    return {
      problem: `auditor ${id} is reached with ${auth} auth, which an injected gateway cannot present yet`,
    };
  return { entry: { id, image: '', port: 0, builtin: false, endpoint: r.endpoint.replace(/\/+$/, '') } };
}

/** The directory with these registrations added (a built-in is never shadowed); problems by auditor id. */
export function withRegistered(
  dir: AuditorDirectory,
  registered: readonly RegisteredAuditor[],
): { directory: AuditorDirectory; problems: Map<string, string> } {
  const out = new Map(dir);
  const problems = new Map<string, string>();
  for (const r of registered) {
    if (dir.get(r.auditorId)?.builtin) continue;
    const { entry, problem } = registeredEntry(r);
    if (entry) out.set(r.auditorId, entry);
    else problems.set(r.auditorId, problem as string);
  }
  return { directory: out, problems };
}

/** Ids a pod's chain may name that `dir` does not know: from its chain annotations and the chain ConfigMap. */
export function unknownChainIds(lists: readonly (string | undefined)[], dir: AuditorDirectory): string[] {
  const ids = lists.flatMap((v) => (v ?? '').split(',').map((s) => s.trim()));
  return [...new Set(ids)].filter((id) => id !== '' && !dir.has(id) && /^[a-z0-9][-a-z0-9]{0,49}$/.test(id));
}
