// Pure: what an apply did to one object (created, configured, unchanged) and
// the views of an object that are compared and shown. The decision compares
// the live object read before the apply with the object the apiserver
// answered, so it works the same for a real apply and a server dry run
// (decision 192).
type Obj = Record<string, unknown>;

export type Outcome = 'created' | 'configured' | 'unchanged';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function metadataOf(obj: Obj): Obj {
  return isObj(obj.metadata) ? obj.metadata : {};
}

/**
 * The apiserver's entry for fields nobody applied, written by the first apply
 * to an object without managedFields (a Namespace whose applied fields are
 * its name alone keeps none): bookkeeping, not a change of the object.
 */
const BEFORE_FIRST_APPLY = 'before-first-apply';

/**
 * What an apply can change, and only that: the object without its
 * resourceVersion, its status, the status writers' managedFields entries, the
 * apiserver's before-first-apply entry and the timestamps of the others. A
 * no-op server-side apply returns the object as it was, so this is equal
 * before and after; any change of a field, a label or of who manages a field
 * makes it differ.
 */
export function comparable(obj: Obj): Obj {
  const { status: _status, ...rest } = obj;
  const { resourceVersion: _rv, managedFields, ...meta } = metadataOf(obj);
  const fields = Array.isArray(managedFields)
    ? managedFields
        .filter((f) => isObj(f) && f.subresource !== 'status' && f.manager !== BEFORE_FIRST_APPLY)
        .map((f) => {
          const { time: _time, ...entry } = f as Obj;
          return entry;
        })
    : undefined;
  return { ...rest, metadata: fields?.length ? { ...meta, managedFields: fields } : meta };
}

/** Key order does not matter to an object's meaning. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObj(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical(value[k])]),
  );
}

export function sameObject(a: Obj, b: Obj): boolean {
  return JSON.stringify(canonical(comparable(a))) === JSON.stringify(canonical(comparable(b)));
}

/** `live` is undefined when the object did not exist before the apply. */
export function outcomeOf(live: Obj | undefined, applied: Obj): Outcome {
  if (live === undefined) return 'created';
  return sameObject(live, applied) ? 'unchanged' : 'configured';
}

/** kubectl's line: `platformagent.platform.io/release-bot created (server dry run)`. */
export function outcomeLine(ref: string, outcome: Outcome, dryRun: boolean): string {
  return `${ref} ${outcome}${dryRun ? ' (server dry run)' : ''}`;
}

const DIFF_NOISE = ['managedFields', 'resourceVersion', 'generation', 'uid', 'creationTimestamp'];

/** The object as `--diff` shows it: what a user wrote or could write, with keys in a stable order. */
export function forDiff(obj: Obj | undefined): Obj | undefined {
  if (obj === undefined) return undefined;
  const { status: _status, ...rest } = obj;
  const meta = Object.fromEntries(Object.entries(metadataOf(obj)).filter(([k]) => !DIFF_NOISE.includes(k)));
  return canonical({ ...rest, metadata: meta }) as Obj;
}

/** The object as `-o json|yaml` prints it: as the apiserver answered, without managedFields. */
export function forOutput(obj: Obj): Obj {
  const { managedFields: _mf, ...meta } = metadataOf(obj);
  return { ...obj, metadata: meta };
}
