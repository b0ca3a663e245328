// Annotation validation as a table (Istio's lesson): annotation → validator,
// run in one loop that collects every error. Adding an annotation is one line
// here and one test. Any error means: warn, record an Event, inject nothing.
import { auditorSettingsProblems, type AuditorSettingValues } from '../../auditors/catalog/settings.ts';
import { SIDECAR_RESOURCES } from '../constants.ts';
import type { AuditorDirectory } from './directory.ts';
import { ANNOTATION } from '../../contract/kube.ts';

export type AuditMode = 'enforce' | 'observe';

export interface SidecarResources {
  requests: { cpu: string; memory: string };
  limits: { cpu: string; memory: string };
}

export interface PodSettings {
  auditors?: string[];
  auditorChain?: string[];
  mode: AuditMode;
  skip: boolean;
  resources: SidecarResources;
  policyId?: string;
  modelUrl?: string;
  apiKeySecret?: string;
  /** The agent's SVID Secret, mounted into the gateway and the credential proxy only. */
  svidSecret?: string;
  auditorSettings?: AuditorSettingValues;
  workspaceId?: string;
}

type Validator = (value: string, out: PodSettings, dir: AuditorDirectory) => string | undefined;

const ID_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const CPU_RE = /^(\d{1,6})(\.\d{1,3})?$|^(\d{1,9})m$/;
const MEMORY_RE = /^(\d{1,12})(Ki|Mi|Gi|Ti|k|M|G|T)?$/;
const MEMORY_UNIT: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** CPU quantity in millicores (`100m`, `0.5`, `2`), undefined when malformed or zero. */
export function cpuMillis(q: string): number | undefined {
  const m = CPU_RE.exec(q);
  if (!m) return undefined;
  const millis = m[3] !== undefined ? Number(m[3]) : Math.round(Number(`${m[1]}${m[2] ?? ''}`) * 1000);
  return millis > 0 ? millis : undefined;
}

/** Memory quantity in bytes (`128Mi`, `1G`), undefined when malformed or zero. */
export function memoryBytes(q: string): number | undefined {
  const m = MEMORY_RE.exec(q);
  if (!m) return undefined;
  const bytes = Number(m[1]) * (MEMORY_UNIT[m[2] ?? ''] as number);
  return bytes > 0 ? bytes : undefined;
}

/** A comma-separated list of auditor ids: no empty items, no duplicates, each known. */
export function parseAuditorList(value: string, dir: AuditorDirectory): { ids: string[]; error?: string } {
  const items = value.split(',').map((s) => s.trim());
  if (value.trim() === '') return { ids: [] };
  if (items.some((s) => s === '')) return { ids: [], error: 'malformed list (empty item); expected a,b,c' };
  const bad = items.filter((s) => !ID_RE.test(s) || s.length > 50);
  if (bad.length)
    return { ids: [], error: `malformed auditor id ${bad.map((b) => JSON.stringify(b)).join(', ')}` };
  const dupes = items.filter((s, i) => items.indexOf(s) !== i);
  if (dupes.length) return { ids: [], error: `auditor listed twice: ${[...new Set(dupes)].join(', ')}` };
  const unknown = items.filter((s) => !dir.has(s));
  if (unknown.length)
    return { ids: [], error: `unknown auditor ${unknown.join(', ')}; known: ${[...dir.keys()].join(', ')}` };
  return { ids: items };
}

const list =
  (key: 'auditors' | 'auditorChain'): Validator =>
  (value, out, dir) => {
    const { ids, error } = parseAuditorList(value, dir);
    if (!error && ids.length) out[key] = ids;
    return error;
  };

const quantity =
  (kind: 'requests' | 'limits', resource: 'cpu' | 'memory'): Validator =>
  (value, out) => {
    const ok = resource === 'cpu' ? cpuMillis(value) : memoryBytes(value);
    if (ok === undefined)
      return resource === 'cpu'
        ? 'expected a CPU quantity such as 100m or 0.5'
        : 'expected a memory quantity such as 128Mi';
    out.resources[kind][resource] = value;
    return undefined;
  };

const DNS_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const PRINTABLE_ID_RE = /^[A-Za-z0-9][-A-Za-z0-9_.:]{0,252}$/;
const MAX_SETTINGS_BYTES = 65_536;

/** An http(s) URL without credentials, at most 2048 characters. */
const modelUrl: Validator = (v, out) => {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return 'expected an http(s) URL such as http://10.88.0.1:11434/v1';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'expected an http or https URL';
  if (url.username || url.password) return 'a model URL carries no credentials';
  if (v.length > 2048 || /\s/.test(v)) return 'expected a URL of at most 2048 characters, no spaces';
  out.modelUrl = v;
  return undefined;
};

const auditorSettings: Validator = (v, out) => {
  if (v.length > MAX_SETTINGS_BYTES) return `longer than ${MAX_SETTINGS_BYTES} characters`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  const problems = auditorSettingsProblems(parsed);
  if (problems.length) return problems.join('; ');
  out.auditorSettings = parsed as AuditorSettingValues;
  return undefined;
};

/** The table. Keys are the annotation names; unknown platform annotations are ignored. */
export const ANNOTATION_VALIDATORS: Record<string, Validator> = {
  [ANNOTATION.auditors]: list('auditors'),
  [ANNOTATION.auditorChain]: list('auditorChain'),
  [ANNOTATION.auditMode]: (v, out) => {
    if (v !== 'enforce' && v !== 'observe') return 'expected enforce or observe';
    out.mode = v;
    return undefined;
  },
  [ANNOTATION.skipAudit]: (v, out) => {
    if (v !== 'true' && v !== 'false') return 'expected "true" or "false"';
    out.skip = v === 'true';
    return undefined;
  },
  [ANNOTATION.cpuRequest]: quantity('requests', 'cpu'),
  [ANNOTATION.memoryRequest]: quantity('requests', 'memory'),
  [ANNOTATION.cpuLimit]: quantity('limits', 'cpu'),
  [ANNOTATION.memoryLimit]: quantity('limits', 'memory'),
  [ANNOTATION.policyId]: (v, out) => {
    if (!/^[A-Za-z0-9][-A-Za-z0-9_.:/]{0,252}$/.test(v))
      return 'expected a policy id ([A-Za-z0-9._:/-], at most 253)';
    out.policyId = v;
    return undefined;
  },
  [ANNOTATION.modelUrl]: modelUrl,
  [ANNOTATION.apiKeySecret]: (v, out) => {
    if (!DNS_SUBDOMAIN_RE.test(v) || v.length > 253) return 'expected a Secret name (DNS subdomain)';
    out.apiKeySecret = v;
    return undefined;
  },
  [ANNOTATION.svidSecret]: (v, out) => {
    if (!DNS_SUBDOMAIN_RE.test(v) || v.length > 253) return 'expected a Secret name (DNS subdomain)';
    out.svidSecret = v;
    return undefined;
  },
  [ANNOTATION.auditorSettings]: auditorSettings,
  [ANNOTATION.workspaceId]: (v, out) => {
    if (!PRINTABLE_ID_RE.test(v)) return 'expected a workspace id ([A-Za-z0-9._:-], at most 253)';
    out.workspaceId = v;
    return undefined;
  },
};

// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Problems with sidecar resources: each quantity parses, requests stay within limits. */
export function sidecarResourceProblems(r: SidecarResources): string[] {
  const bad = [
    ...(['requests', 'limits'] as const).flatMap((k) => [
      cpuMillis(r[k].cpu) === undefined ? `${k}.cpu ${JSON.stringify(r[k].cpu)} is not a CPU quantity` : '',
      memoryBytes(r[k].memory) === undefined
        ? `${k}.memory ${JSON.stringify(r[k].memory)} is not a memory quantity`
        : '',
    ]),
  ].filter(Boolean);
  return bad.length ? bad : crossChecks(r);
}

function crossChecks(r: SidecarResources): string[] {
  const errors: string[] = [];
  if ((cpuMillis(r.requests.cpu) as number) > (cpuMillis(r.limits.cpu) as number)) {
    errors.push(`sidecar CPU request ${r.requests.cpu} exceeds the limit ${r.limits.cpu}`);
  }
  if ((memoryBytes(r.requests.memory) as number) > (memoryBytes(r.limits.memory) as number)) {
    errors.push(`sidecar memory request ${r.requests.memory} exceeds the limit ${r.limits.memory}`);
  }
  return errors;
}

/** Runs every validator over the pod's annotations; returns the settings and every error. */
export function validateAnnotations(
  annotations: Record<string, string> | undefined,
  dir: AuditorDirectory,
  defaults: SidecarResources = SIDECAR_RESOURCES,
): { settings: PodSettings; errors: string[] } {
  const settings: PodSettings = {
    mode: 'enforce',
    skip: false,
    resources: { requests: { ...defaults.requests }, limits: { ...defaults.limits } },
  };
  const errors: string[] = [];
  for (const [name, validate] of Object.entries(ANNOTATION_VALIDATORS)) {
    const value = annotations?.[name];
    if (value === undefined) continue;
    const error = CONTROL_RE.test(value)
      ? 'contains control characters'
      : validate(value.trim(), settings, dir);
    if (error) errors.push(`${name}: ${error}`);
  }
  if (errors.length === 0) errors.push(...crossChecks(settings.resources));
  return { settings, errors };
}
