// The registry check the admission webhook's strict mode calls, and the
// administrators' way to notarize a digest. A digest is notarized when an
// AuditorRegistration or ModelRegistration with that `spec.imageDigest`
// carries the annotation `platform.io/notarized: "true"`.
import type { AuditorRegistration, ModelRegistration } from '../../crds/generated/types.ts';
import { badRequest, notFound } from '../../base/http-error.ts';
import type { ApiDeps, RouteCtx, RouteSpec } from './route.ts';
import { DIGEST_CHECK, NOTARIZATION } from './responses.ts';
import type { RegistrationPlural } from '../store/cluster.ts';
import { ANNOTATION, PLURAL } from '../../contract/kube.ts';

const DIGEST_RE = /^sha256:[a-f0-9]{64}$/;

type Registration = AuditorRegistration | ModelRegistration;

function parseDigest(raw: string | undefined): string {
  if (raw === undefined || !DIGEST_RE.test(raw)) {
    throw badRequest('expected digest=sha256:<64 lowercase hex characters>', 'invalid_digest');
  }
  return raw;
}

export function recordsWithDigest(
  deps: Pick<ApiDeps, 'auditors' | 'models'>,
  digest: string,
): { plural: RegistrationPlural; reg: Registration }[] {
  return [
    ...deps.auditors.list().map((reg) => ({ plural: PLURAL.auditor, reg })),
    ...deps.models.list().map((reg) => ({ plural: PLURAL.model, reg })),
  ].filter(({ reg }) => reg.spec.imageDigest === digest);
}

export function isNotarized(deps: Pick<ApiDeps, 'auditors' | 'models'>, digest: string): boolean {
  return recordsWithDigest(deps, digest).some(
    ({ reg }) => reg.metadata.annotations?.[ANNOTATION.notarized] === 'true',
  );
}

function check(rc: RouteCtx): Promise<unknown> {
  const digest = parseDigest(rc.query.digest);
  rc.audit = { resource: digest };
  return Promise.resolve({ digest, notarized: isNotarized(rc.deps, digest) });
}

async function mark(rc: RouteCtx, notarized: boolean): Promise<unknown> {
  const digest = parseDigest(notarized ? (rc.body as { digest?: string }).digest : rc.params.digest);
  rc.audit = { resource: digest, details: { notarized } };
  const records = recordsWithDigest(rc.deps, digest);
  if (records.length === 0) {
    throw notFound(
      `no AuditorRegistration or ModelRegistration has imageDigest ${digest}; register it first`,
    );
  }
  const annotations = notarized
    ? { [ANNOTATION.notarized]: 'true', [ANNOTATION.notarizedBy]: rc.principal.subject.slice(0, 253) }
    : { [ANNOTATION.notarized]: null, [ANNOTATION.notarizedBy]: null };
  for (const { plural, reg } of records) {
    await rc.deps.writer.annotateRegistration(plural, reg.metadata.name ?? '', annotations);
  }
  return { digest, notarized, records: records.map(({ plural, reg }) => `${plural}/${reg.metadata.name}`) };
}

const NOTARIZE_BODY = {
  type: 'object',
  required: ['digest'],
  additionalProperties: false,
  properties: { digest: { type: 'string', pattern: DIGEST_RE.source } },
};

export const REGISTRY_ROUTES: RouteSpec[] = [
  {
    method: 'GET',
    path: '/registry/check',
    action: 'public',
    summary: 'Is this image digest notarized?',
    success: 200,
    response: DIGEST_CHECK,
    query: { digest: 'sha256:<hex>' },
    handle: check,
  },
  {
    method: 'POST',
    path: '/v1/registry/notarizations',
    action: 'registry.notarize',
    summary: 'Mark a registered digest notarized',
    success: 200,
    response: NOTARIZATION,
    body: NOTARIZE_BODY,
    handle: (rc) => mark(rc, true),
  },
  {
    method: 'DELETE',
    path: '/v1/registry/notarizations/{digest}',
    action: 'registry.notarize',
    summary: 'Withdraw a notarization',
    success: 200,
    response: NOTARIZATION,
    handle: (rc) => mark(rc, false),
  },
];
