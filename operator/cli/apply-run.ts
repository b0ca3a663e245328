// The cluster side of `platform apply`: which resource each object is
// (discovery), what is live, a server-side dry run of every object before
// anything is written, then the server-side apply itself.
import { CliError, EXIT } from './errors.ts';
import { kubeError, type KubeHttp, type KubeReply, type Obj } from './apply-kube.ts';
import { applyOrder, groupOf, objectRef } from './apply-order.ts';
import type { ApplyObject } from './apply-validate.ts';
import { GROUP } from '../../contract/kube.ts';

export interface ApplySettings {
  fieldManager: string;
  force: boolean;
}

export interface Planned extends ApplyObject {
  ref: string;
  /** The object's URL path on the apiserver. */
  path: string;
}

interface ResourceInfo {
  plural: string;
  namespaced: boolean;
}

export const crdsMissing = (server: string, kind?: string): CliError =>
  new CliError(
    `the platform CRDs are not installed on the cluster at ${server}${kind ? ` (no kind ${kind})` : ''}`,
    EXIT.failed,
    'install them with `kubectl apply -k config/crds` (or run `npm start`)',
  );

const apiPath = (apiVersion: string): string =>
  apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;

async function discover(http: KubeHttp, apiVersion: string): Promise<Map<string, ResourceInfo>> {
  const reply = await http.request('GET', apiPath(apiVersion));
  if (reply.status === 404) {
    if (groupOf(apiVersion) === GROUP) throw crdsMissing(http.server);
    throw new CliError(`the cluster at ${http.server} serves no ${apiVersion}`, EXIT.failed);
  }
  if (reply.status !== 200) throw kubeError(`discovering ${apiVersion}`, reply);
  const list = Array.isArray(reply.body.resources) ? (reply.body.resources as Obj[]) : [];
  const out = new Map<string, ResourceInfo>();
  for (const r of list) {
    if (typeof r.name !== 'string' || r.name.includes('/')) continue;
    out.set(String(r.kind), { plural: r.name, namespaced: r.namespaced === true });
  }
  return out;
}

function planned(o: ApplyObject, info: ResourceInfo, defaultNamespace: string): Planned {
  const namespace = info.namespaced ? (o.namespace ?? defaultNamespace) : undefined;
  const { namespace: _ns, ...meta } = o.body.metadata as Obj;
  const body = { ...o.body, metadata: namespace ? { ...meta, namespace } : meta };
  const scope = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const p: Planned = {
    ...o,
    body,
    ref: objectRef(o.apiVersion, o.kind, o.name),
    path: `${apiPath(o.apiVersion)}${scope}/${info.plural}/${encodeURIComponent(o.name)}`,
  };
  if (namespace) p.namespace = namespace;
  else delete p.namespace;
  return p;
}

/** Every object's resource on the cluster, in apply order; a kind the cluster does not serve stops it all. */
export async function plan(
  http: KubeHttp,
  objects: readonly ApplyObject[],
  defaultNamespace: string,
): Promise<Planned[]> {
  const served = new Map<string, Map<string, ResourceInfo>>();
  for (const v of new Set(objects.map((o) => o.apiVersion))) served.set(v, await discover(http, v));
  const out = objects.map((o) => {
    const info = served.get(o.apiVersion)?.get(o.kind);
    if (info) return planned(o, info, defaultNamespace);
    if (groupOf(o.apiVersion) === GROUP) throw crdsMissing(http.server, o.kind);
    throw new CliError(`${o.at}: the cluster serves no kind ${o.kind} in ${o.apiVersion}`, EXIT.failed);
  });
  return applyOrder(out);
}

/** The live object, or undefined when it does not exist. */
export async function readLive(http: KubeHttp, p: Planned): Promise<Obj | undefined> {
  const reply = await http.request('GET', p.path);
  if (reply.status === 404) return undefined;
  if (reply.status !== 200) throw kubeError(p.ref, reply);
  return reply.body;
}

/** A field-manager conflict as one line: each field and who owns it, and what to do. */
export function conflictError(ref: string, reply: KubeReply): CliError {
  const details = (reply.body.details ?? {}) as {
    causes?: { reason?: string; message?: string; field?: string }[];
  };
  const causes = (details.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict');
  const owned = causes.map((c) => {
    const manager = /conflict with "([^"]+)"/.exec(c.message ?? '')?.[1];
    return `${c.field ?? '?'}${manager ? ` is owned by field manager "${manager}"` : ''}`;
  });
  const what = owned.length ? owned.join(', ') : String(reply.body.message ?? 'conflict');
  return new CliError(
    `${ref}: conflict: ${what}`,
    EXIT.failed,
    're-run with --force-conflicts to take these fields over, or leave them out of your file',
  );
}

export type ApplyResult =
  { ok: true; object: Obj } | { ok: false; error: CliError; namespaceMissing: boolean };

/** One server-side apply (a dry run when `dryRun`). */
export async function applyObject(
  http: KubeHttp,
  p: Planned,
  settings: ApplySettings,
  dryRun: boolean,
): Promise<ApplyResult> {
  const reply = await http.request('PATCH', p.path, {
    body: p.body,
    contentType: 'application/apply-patch+yaml',
    query: {
      fieldManager: settings.fieldManager,
      fieldValidation: 'Strict',
      force: settings.force ? 'true' : undefined,
      dryRun: dryRun ? 'All' : undefined,
    },
  });
  if (reply.status >= 200 && reply.status < 300) return { ok: true, object: reply.body };
  const details = reply.body.details as { kind?: string } | undefined;
  const namespaceMissing = reply.status === 404 && details?.kind === 'namespaces';
  const error = reply.status === 409 ? conflictError(p.ref, reply) : kubeError(p.ref, reply);
  return { ok: false, error, namespaceMissing };
}

export interface Step {
  p: Planned;
  live?: Obj;
  /** The dry run's answer. */
  preview?: Obj;
  error?: CliError;
  /** In a namespace this apply creates: the server cannot check it before the namespace exists. */
  unchecked?: boolean;
}

/** Reads every live object and dry-runs every apply; nothing is written. */
export async function preflight(
  http: KubeHttp,
  objects: readonly Planned[],
  settings: ApplySettings,
): Promise<Step[]> {
  const created = new Set(
    objects.filter((o) => o.apiVersion === 'v1' && o.kind === 'Namespace').map((o) => o.name),
  );
  const steps: Step[] = [];
  for (const p of objects) {
    const step: Step = { p };
    const live = await readLive(http, p);
    if (live) step.live = live;
    const dry = await applyObject(http, p, settings, true);
    if (dry.ok) step.preview = dry.object;
    else if (dry.namespaceMissing && p.namespace !== undefined && created.has(p.namespace))
      step.unchecked = true;
    else step.error = dry.error;
    steps.push(step);
  }
  return steps;
}
