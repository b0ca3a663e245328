// AdmissionReview v1 in and out: strict parsing with messages that say what
// was wrong, and response building (base64 JSON patch, sanitised warnings).
import fastJsonPatch from 'fast-json-patch';
import { MAX_DEPTH, describe, isObject, nestedDeeperThan, objectsProblem, requestProblem } from './shape.ts';

const { compare } = fastJsonPatch;

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  object?: unknown;
  oldObject?: unknown;
  dryRun?: boolean;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  patchType?: 'JSONPatch';
  patch?: string;
  warnings?: string[];
  status?: { code: number; message: string; reason?: string };
}

/** A request the server answers with 400 and this message. */
export class BadRequestError extends Error {
  readonly status = 400;
}

/** Parses and checks an AdmissionReview body; throws BadRequestError naming the first problem. */
export function parseReview(body: string): AdmissionRequest {
  let review: unknown;
  try {
    review = JSON.parse(body);
  } catch (err) {
    throw new BadRequestError(`malformed JSON: ${(err as Error).message}`);
  }
  if (!isObject(review)) throw new BadRequestError('expected an AdmissionReview object');
  if (nestedDeeperThan(review, MAX_DEPTH))
    throw new BadRequestError(`nested deeper than ${MAX_DEPTH} levels`);
  if (review.apiVersion !== ADMISSION_API_VERSION) {
    throw new BadRequestError(
      `expected apiVersion ${ADMISSION_API_VERSION}, got ${describe(review.apiVersion)}`,
    );
  }
  if (review.kind !== 'AdmissionReview')
    throw new BadRequestError(`expected kind AdmissionReview, got ${describe(review.kind)}`);
  const request = review.request;
  if (!isObject(request)) throw new BadRequestError('AdmissionReview has no request');
  const problem = requestProblem(request) ?? objectsProblem(request);
  if (problem) throw new BadRequestError(problem);
  return request as unknown as AdmissionRequest;
}

// eslint-disable-next-line no-control-regex
const UNPRINTABLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
export const MAX_WARNING_CHARS = 240;

/** The apiserver drops warnings with control characters and truncates long ones: do it ourselves. */
export function sanitizeWarning(text: string): string {
  const clean = text.replace(UNPRINTABLE_RE, ' ');
  return clean.length > MAX_WARNING_CHARS ? `${clean.slice(0, MAX_WARNING_CHARS - 1)}…` : clean;
}

export function reviewBody(response: AdmissionResponse): string {
  const warnings = response.warnings?.map(sanitizeWarning);
  return JSON.stringify({
    apiVersion: ADMISSION_API_VERSION,
    kind: 'AdmissionReview',
    response: { ...response, ...(warnings?.length ? { warnings } : { warnings: undefined }) },
  });
}

export const allow = (uid: string, warnings?: string[]): AdmissionResponse => ({
  uid,
  allowed: true,
  ...(warnings?.length ? { warnings } : {}),
});

export const deny = (uid: string, message: string, code = 403, warnings?: string[]): AdmissionResponse => ({
  uid,
  allowed: false,
  status: { code, message, reason: code === 403 ? 'Forbidden' : 'InternalError' },
  ...(warnings?.length ? { warnings } : {}),
});

function withoutManagedFields<T>(obj: T): T {
  const meta = (obj as { metadata?: { managedFields?: unknown } }).metadata;
  if (!meta?.managedFields) return obj;
  const { managedFields: _drop, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/**
 * The RFC 6902 patch from `original` to `mutated`, computed by diffing
 * (fast-json-patch escapes `/` as `~1` and `~` as `~0`, RFC 6901);
 * `managedFields` is dropped from both sides first.
 */
export function diffPatch(original: unknown, mutated: unknown): fastJsonPatch.Operation[] {
  return compare(withoutManagedFields(original as object), withoutManagedFields(mutated as object));
}

export function patchResponse(
  uid: string,
  ops: fastJsonPatch.Operation[],
  warnings?: string[],
): AdmissionResponse {
  if (ops.length === 0) return allow(uid, warnings);
  return {
    ...allow(uid, warnings),
    patchType: 'JSONPatch',
    patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
  };
}
