// Which auditors a pod gets, in which order (CLARIFICATIONS: Pod wiring): the
// first non-empty of the auditor-chain annotation, the auditors annotation,
// the `platform-auditor-chain` ConfigMap (ordered union of preRequest and
// postResponse), the built-in default chain; the system auditors are always
// appended when missing. Then each auditor gets a port that never collides.
import { DEFAULT_CHAIN, PORT, SYSTEM_AUDITORS } from '../constants.ts';
import { parseAuditorList, type PodSettings } from './annotations.ts';
import type { AuditorDirectory, AuditorImage } from './directory.ts';
import { CONFIGMAP, CHAIN_CONFIGMAP_KEYS } from '../../contract/kube.ts';

export type ChainSource = 'annotation:auditor-chain' | 'annotation:auditors' | 'configmap' | 'default';

export interface ChainResolution {
  ids: string[];
  source: ChainSource;
}

/** The `data` of the namespace's `platform-auditor-chain` ConfigMap, if any. */
export type ChainConfigData = Record<string, string> | undefined;

/** The ordered union of the ConfigMap's lists, or an error naming the key. */
export function configMapChain(
  data: ChainConfigData,
  dir: AuditorDirectory,
): { ids: string[]; error?: string } {
  const ids: string[] = [];
  for (const key of CHAIN_CONFIGMAP_KEYS) {
    const value = data?.[key];
    if (value === undefined) continue;
    const parsed = parseAuditorList(value, dir);
    if (parsed.error)
      return { ids: [], error: `ConfigMap ${CONFIGMAP.auditorChain} key ${key}: ${parsed.error}` };
    for (const id of parsed.ids) if (!ids.includes(id)) ids.push(id);
  }
  return { ids };
}

export function resolveChain(
  settings: PodSettings,
  configData: ChainConfigData,
  dir: AuditorDirectory,
): { chain?: ChainResolution; error?: string } {
  let picked: ChainResolution;
  if (settings.auditorChain?.length)
    picked = { ids: settings.auditorChain, source: 'annotation:auditor-chain' };
  else if (settings.auditors?.length) picked = { ids: settings.auditors, source: 'annotation:auditors' };
  else {
    const fromMap = configMapChain(configData, dir);
    if (fromMap.error) return { error: fromMap.error };
    picked = fromMap.ids.length
      ? { ids: fromMap.ids, source: 'configmap' }
      : { ids: [...DEFAULT_CHAIN], source: 'default' };
  }
  const ids = [...picked.ids];
  for (const system of SYSTEM_AUDITORS) if (!ids.includes(system)) ids.push(system);
  return { chain: { ids, source: picked.source } };
}

export interface PlacedAuditor extends AuditorImage {
  /** The port this pod's sidecar listens on (`PORT`); 0 for a remote auditor (it has `endpoint`). */
  assignedPort: number;
}

/** The auditors that run as sidecars in the pod (a remote one is only called by the gateway). */
export const sidecarsOf = (placed: readonly PlacedAuditor[]): PlacedAuditor[] =>
  placed.filter((a) => !a.endpoint);

/** Where the gateway reaches an auditor: its sidecar on loopback, or a remote one's endpoint. */
export const auditorUrl = (a: PlacedAuditor): string => a.endpoint ?? `http://127.0.0.1:${a.assignedPort}`;

const RESERVED = new Set<number>([PORT.gateway, PORT.credentialProxy, PORT.mcpGateway]);
const isBuiltinRange = (p: number): boolean => p >= PORT.builtinFirst && p <= PORT.builtinLast;

/** The auditor's own port when it may keep it, else the lowest free third-party port; undefined when none is free. */
function portFor(e: AuditorImage, used: ReadonlySet<number>): number | undefined {
  if (e.builtin || !(used.has(e.port) || isBuiltinRange(e.port))) return e.port;
  let port = PORT.thirdPartyFirst;
  while (port <= PORT.thirdPartyLast && used.has(port)) port++;
  return port > PORT.thirdPartyLast ? undefined : port;
}

/**
 * Ports in a pod: built-ins keep their fixed port; another auditor keeps its
 * registered port when free (not reserved, not in the built-in range, not used
 * by the pod or an earlier auditor), else the lowest free port in 8101–8199.
 */
export function assignPorts(
  ids: readonly string[],
  dir: AuditorDirectory,
  podPorts: readonly number[],
): { placed: PlacedAuditor[]; error?: string } {
  const entries = ids.map((id) => dir.get(id) as AuditorImage);
  const fixed = new Map<number, string>([
    [PORT.gateway, 'the gateway'],
    [PORT.credentialProxy, 'the credential proxy'],
  ]);
  for (const e of entries) if (e.builtin) fixed.set(e.port, `auditor ${e.id}`);
  const clash = podPorts.find((p) => fixed.has(p));
  if (clash !== undefined)
    return { placed: [], error: `the pod's port ${clash} collides with ${fixed.get(clash)}` };
  const used = new Set<number>([...RESERVED, ...podPorts, ...fixed.keys()]);
  const placed: PlacedAuditor[] = [];
  for (const e of entries) {
    if (e.endpoint) {
      placed.push({ ...e, assignedPort: 0 }); // remote: the gateway calls its endpoint, no port here
      continue;
    }
    const port = portFor(e, used);
    if (port === undefined) return { placed: [], error: `no free port in 8101-8199 for auditor ${e.id}` };
    used.add(port);
    placed.push({ ...e, assignedPort: port });
  }
  return { placed };
}
