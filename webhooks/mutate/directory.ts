// Which auditors the webhook can inject: the built-in catalog (fixed ports
// from `auditors/catalog/`) plus third-party auditors registered with an
// image and the port they listen on (default 8080, spec: Auditor contract).
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
