// Structural equality of plain data (what a YAML document becomes: scalars,
// arrays, plain objects), without node:util, so the definition-file modules
// also run in the browser (the UI's definition editor imports them). Pure.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameArrays(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
}

function sameObjects(a: Obj, b: Obj): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

/** True when `a` and `b` hold the same data (NaN equals NaN; key order does not matter). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return sameArrays(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (isObj(a) && isObj(b)) return sameObjects(a, b);
  return false;
}
