// JSON Canonicalization Scheme (RFC 8785): object members sorted by their
// UTF-16 code units, no whitespace, numbers and strings serialised as
// ECMAScript does (which is what JCS prescribes). The Evidence signature is
// computed over these bytes, so a verifier in any language gets the same.
// The API audit log hashes the same text but keeps a lone surrogate (escaped
// as JSON.stringify does) instead of refusing it: its entries hold what
// callers sent, and a log must record what it cannot canonicalise strictly.

export class CanonicalizationError extends Error {
  override name = 'CanonicalizationError';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface CanonicalOptions {
  /** 'reject' (RFC 8785, the default) throws; 'escape' writes `\\udXXX` as JSON.stringify does. */
  loneSurrogates?: 'reject' | 'escape';
}

function serialize(value: unknown, out: string[], path: string, options: CanonicalOptions): void {
  if (value === null || typeof value === 'boolean') {
    out.push(String(value));
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new CanonicalizationError(`${path}: ${String(value)} is not valid JSON`);
    out.push(JSON.stringify(value));
  } else if (typeof value === 'string') {
    if (options.loneSurrogates !== 'escape' && LONE_SURROGATE.test(value)) {
      throw new CanonicalizationError(`${path}: lone surrogate in string`);
    }
    out.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      serialize(item === undefined ? null : item, out, `${path}[${i}]`, options);
    });
    out.push(']');
  } else if (typeof value === 'object') {
    serializeObject(value as Record<string, unknown>, out, path, options);
  } else {
    throw new CanonicalizationError(`${path}: ${typeof value} cannot be canonicalised`);
  }
}

function serializeObject(
  obj: Record<string, unknown>,
  out: string[],
  path: string,
  options: CanonicalOptions,
): void {
  const toJSON = (obj as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === 'function') return serialize(toJSON.call(obj), out, path, options);
  // Array.prototype.sort compares UTF-16 code units: exactly RFC 8785 §3.2.3.
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  out.push('{');
  keys.forEach((key, i) => {
    if (i > 0) out.push(',');
    out.push(JSON.stringify(key), ':');
    serialize(obj[key], out, `${path}.${key}`, options);
  });
  out.push('}');
}

/** The canonical JSON text of `value`; undefined members are dropped as JSON.stringify drops them. */
export function canonicalize(value: unknown, options: CanonicalOptions = {}): string {
  const out: string[] = [];
  serialize(value, out, '$', options);
  return out.join('');
}

export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(canonicalize(value), 'utf8');
}
