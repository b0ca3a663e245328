// Shape checks of what an AdmissionReview carries, before any handler reads
// it. The apiserver only ever sends typed objects, so anything else comes from
// a client talking to the port directly: it gets a 400 naming the field
// (never a 500 from a handler tripping over a number where a string belongs).
// Only the fields the handlers read are checked; the rest passes untouched.

/** Deeper than any Kubernetes object; deeper input would overflow a recursive clone or diff. */
export const MAX_DEPTH = 100;

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function describe(v: unknown): string {
  return JSON.stringify(v)?.slice(0, 80) ?? String(v);
}

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** `path: expected …, got …`; the value is shown for scalars, its type otherwise. */
function expected(path: string, what: string, got: unknown): string {
  const shown = isObject(got) || Array.isArray(got) ? typeName(got) : describe(got);
  return `${path}: expected ${what}, got ${shown}`;
}

/** True when `value` nests objects or arrays deeper than `limit` (stops looking there). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  return Object.values(value).some((v) => nestedDeeperThan(v, limit - 1));
}

function optionalString(obj: Record<string, unknown>, key: string, path: string): string | undefined {
  const v = obj[key];
  return v === undefined || v === null || typeof v === 'string'
    ? undefined
    : expected(`${path}.${key}`, 'a string', v);
}

function stringMap(v: unknown, path: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) return expected(path, 'an object of strings', v);
  for (const [key, value] of Object.entries(v)) {
    if (typeof value !== 'string') return expected(`${path}[${describe(key)}]`, 'a string', value);
  }
  return undefined;
}

function first(checks: (() => string | undefined)[]): string | undefined {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return undefined;
}

/** `{group, version, <third>}`, all strings. */
function groupVersion(v: unknown, path: string, third: string): string | undefined {
  if (!isObject(v)) return expected(path, `an object {group, version, ${third}}`, v);
  for (const key of ['group', 'version', third]) {
    if (typeof v[key] !== 'string') return expected(`${path}.${key}`, 'a string', v[key]);
  }
  return undefined;
}

/** The request envelope: uid, kind, resource, operation and the optional scalars. */
export function requestProblem(request: Record<string, unknown>): string | undefined {
  if (typeof request.uid !== 'string' || request.uid === '') return 'request.uid is missing';
  return first([
    () => groupVersion(request.kind, 'request.kind', 'kind'),
    () => groupVersion(request.resource, 'request.resource', 'resource'),
    () =>
      OPERATIONS.includes(request.operation as string)
        ? undefined
        : expected('request.operation', `one of ${OPERATIONS.join(', ')}`, request.operation),
    ...['subResource', 'name', 'namespace'].map((k) => () => optionalString(request, k, 'request')),
    () =>
      (request.operation === 'CREATE' || request.operation === 'UPDATE') && !isObject(request.object)
        ? expected('request.object', `the object of the ${request.operation as string}`, request.object)
        : undefined,
    () =>
      request.dryRun === undefined || request.dryRun === null || typeof request.dryRun === 'boolean'
        ? undefined
        : expected('request.dryRun', 'a boolean', request.dryRun),
  ]);
}

/** Any Kubernetes object: an object whose metadata, labels and annotations are well-typed. */
export function objectProblem(obj: unknown, path: string): string | undefined {
  if (obj === undefined || obj === null) return undefined;
  if (!isObject(obj)) return expected(path, 'an object', obj);
  const meta = obj.metadata;
  if (meta === undefined || meta === null) return undefined;
  if (!isObject(meta)) return expected(`${path}.metadata`, 'an object', meta);
  const at = `${path}.metadata`;
  return first([
    ...['name', 'generateName', 'namespace'].map((k) => () => optionalString(meta, k, at)),
    () => stringMap(meta.labels, `${at}.labels`),
    () => stringMap(meta.annotations, `${at}.annotations`),
  ]);
}

function arrayOf(
  v: unknown,
  path: string,
  item: (x: Record<string, unknown>, at: string) => string | undefined,
): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) return expected(path, 'an array', v);
  for (const [i, x] of v.entries()) {
    const at = `${path}[${i}]`;
    const problem = isObject(x) ? item(x, at) : expected(at, 'an object', x);
    if (problem) return problem;
  }
  return undefined;
}

function containerProblem(c: Record<string, unknown>, at: string): string | undefined {
  return first([
    () => (typeof c.name === 'string' ? undefined : expected(`${at}.name`, 'a string', c.name)),
    () => optionalString(c, 'image', at),
    () =>
      arrayOf(c.ports, `${at}.ports`, (p, pat) =>
        Number.isInteger(p.containerPort)
          ? undefined
          : expected(`${pat}.containerPort`, 'an integer', p.containerPort),
      ),
    () =>
      arrayOf(c.env, `${at}.env`, (e, eat) =>
        typeof e.name === 'string' ? undefined : expected(`${eat}.name`, 'a string', e.name),
      ),
  ]);
}

/** A pod as /mutate and /validate read it: typed metadata, spec and containers. */
export function podProblem(pod: unknown, path: string): string | undefined {
  const problem = objectProblem(pod, path);
  if (problem || !isObject(pod)) return problem;
  const spec = pod.spec;
  if (spec === undefined || spec === null) return undefined;
  if (!isObject(spec)) return expected(`${path}.spec`, 'an object', spec);
  return first([
    ...['initContainers', 'containers', 'ephemeralContainers'].map(
      (k) => () => arrayOf(spec[k], `${path}.spec.${k}`, containerProblem),
    ),
    () =>
      spec.hostNetwork === undefined || spec.hostNetwork === null || typeof spec.hostNetwork === 'boolean'
        ? undefined
        : expected(`${path}.spec.hostNetwork`, 'a boolean', spec.hostNetwork),
  ]);
}

/** The first problem with the objects of a request, by the resource it names. */
export function objectsProblem(request: Record<string, unknown>): string | undefined {
  const resource = request.resource as { group: string; resource: string };
  const isPod = resource.group === '' && resource.resource === 'pods';
  const check = isPod ? podProblem : objectProblem;
  return check(request.object, 'request.object') ?? check(request.oldObject, 'request.oldObject');
}
