// The Verifier's view of auditors: the built-in catalog plus the
// AuditorRegistrations, as vocabularies (for the Cedar schema policies are
// validated against), as registration facts (for trust tiers), and the
// self-registration body (spec "auditor self-registration", relayed by the
// Gateway) as an AuditorRegistration.
import { BUILTIN_AUDITOR_TABLE, isBuiltinAuditor } from '../../auditors/builtin.ts';
import {
  AUDITOR_CATEGORIES,
  CATALOG_PHASES,
  type RequestPhase,
  type Vocabulary,
} from '../../auditors/sdk/types.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { auditorRegistration } from '../../crds/kinds/registrations.ts';
import type { JSONSchema } from '../../crds/kit.ts';
import { lowerTier, registrationCeiling, type RegistrationFacts } from '../../evidence/trust.ts';
import type { TrustTier } from '../../evidence/types.ts';
import { API_VERSION } from '../../contract/kube.ts';
import type { SyncedVocabulary } from './vocabulary.ts';

const DEFAULT_PHASES: RequestPhase[] = ['request', 'response'];

/** Built-in vocabularies (what their `/vocabulary` serves) and those of registered auditors that declare claims. */
export function vocabulariesOf(registrations: readonly AuditorRegistration[]): Vocabulary[] {
  const builtin = BUILTIN_AUDITOR_TABLE.map(({ id, vocabulary }) => ({
    auditor_id: id,
    version: '1',
    phases: DEFAULT_PHASES,
    vocabulary,
  }));
  const registered = registrations
    .filter((r) => !isBuiltinAuditor(r.spec.auditorId) && (r.spec.claims?.length ?? 0) > 0)
    .map((r) => ({
      auditor_id: r.spec.auditorId,
      version: r.spec.version ?? '1',
      phases: r.spec.supportedPhases ?? DEFAULT_PHASES,
      vocabulary: (r.spec.claims ?? []).map((c) => ({
        name: c.name,
        type: c.type,
        description: c.description ?? '',
        value_schema: {},
      })),
    }));
  return [...builtin, ...registered];
}

/**
 * What an auditor id may earn: its registration when it has one; a built-in
 * auditor is injected as a sidecar by the webhook; anything else is unknown
 * (and earns `unverified`).
 */
export function auditorTrustFacts(
  id: string,
  reg: AuditorRegistration | undefined,
): RegistrationFacts | undefined {
  return registrationFacts(reg) ?? (isBuiltinAuditor(id) ? { deploymentMode: 'sidecar' } : undefined);
}

/**
 * The tier a registry list or passport shows for an auditor: what its current
 * registration can earn (the same ceiling Evidence is assessed against),
 * without a verified hardware quote. Never a stored status: a tier follows the
 * registration actually in force.
 */
export function registeredTier(id: string, reg: AuditorRegistration | undefined): TrustTier {
  return lowerTier(registrationCeiling(auditorTrustFacts(id, reg)), 'mtls_verified');
}

export function registrationFacts(reg: AuditorRegistration | undefined): RegistrationFacts | undefined {
  if (!reg) return undefined;
  return {
    deploymentMode: reg.spec.deploymentMode,
    ...(reg.spec.auth?.type ? { authType: reg.spec.auth.type } : {}),
  };
}

/** The self-registration body (snake_case, as auditors and the Gateway send it). */
export interface RegistrationBody {
  auditor_id: string;
  /** The name the catalog and the registry list show (default: the id). */
  display_name?: string;
  /** Where an in-cluster or external auditor answers; a sidecar names `image` instead. */
  endpoint?: string;
  /** A sidecar's image (the webhook injects it), pinned by `image_digest`. */
  image?: string;
  image_digest?: string;
  default_port?: number;
  vocabulary_url?: string;
  health_check_interval?: number;
  supported_phases?: RequestPhase[];
  deployment_mode?: AuditorRegistration['spec']['deploymentMode'];
  category?: AuditorRegistration['spec']['category'];
  phase?: AuditorRegistration['spec']['phase'];
  version?: string;
  auth?: {
    type?: 'mtls' | 'api_key' | 'none';
    cert_pem?: string;
    secret_ref?: { name: string; key: string };
  };
  claims?: NonNullable<AuditorRegistration['spec']['claims']>;
  /** The workspaces it is for (decision 81); empty or absent on a new registration: cluster-wide. */
  workspaces?: string[];
}

export const REGISTRATION_BODY = {
  type: 'object',
  required: ['auditor_id'],
  // The record names where the auditor answers (endpoint) or what the webhook runs (image).
  anyOf: [{ required: ['endpoint'] }, { required: ['image'] }],
  properties: {
    auditor_id: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$' },
    display_name: { type: 'string', minLength: 1, maxLength: 253 },
    endpoint: { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https?://' },
    image: { type: 'string', minLength: 1, maxLength: 512, pattern: '^[^\\s@]+(@sha256:[a-f0-9]{64})?$' },
    image_digest: { type: 'string', pattern: '^sha256:[a-f0-9]{64}$' },
    default_port: { type: 'integer', minimum: 1, maximum: 65535 },
    vocabulary_url: { type: 'string', maxLength: 2048, format: 'uri' },
    health_check_interval: { type: 'integer', minimum: 1, maximum: 3600 },
    supported_phases: {
      type: 'array',
      maxItems: 4,
      uniqueItems: true,
      items: { enum: ['request', 'response', 'artifact', 'execution'] },
    },
    deployment_mode: { enum: ['sidecar', 'in-cluster', 'external'] },
    category: { enum: [...AUDITOR_CATEGORIES] },
    phase: { enum: [...CATALOG_PHASES] },
    version: { type: 'string', maxLength: 63 },
    auth: { type: 'object' },
    // The CRD's own claim list (names, types, settings), so a bad claim is a 400 naming it.
    claims: (auditorRegistration.spec.properties as Record<string, JSONSchema>).claims,
    workspaces: {
      type: 'array',
      maxItems: 64,
      uniqueItems: true,
      items: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$' },
    },
  },
};

type Spec = AuditorRegistration['spec'];

function authOf(body: RegistrationBody, prev: Spec | undefined): Spec['auth'] {
  if (!body.auth?.type) return prev?.auth;
  return {
    type: body.auth.type,
    ...(body.auth.cert_pem ? { certPem: body.auth.cert_pem } : {}),
    ...(body.auth.secret_ref ? { secretRef: body.auth.secret_ref } : {}),
  };
}

/** The optional fields the body sets (absent ones keep their stored value). */
function optionalFields(body: RegistrationBody): Partial<Spec> {
  const fields: Partial<Spec> = {
    displayName: body.display_name,
    vocabularyUrl: body.vocabulary_url,
    healthCheckIntervalSeconds: body.health_check_interval,
    supportedPhases: body.supported_phases,
    version: body.version,
    claims: body.claims,
    image: body.image,
    imageDigest: body.image_digest ?? digestOf(body.image),
    defaultPort: body.default_port,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Spec>;
}

/** The digest an image reference pins (`name@sha256:…`), if any. */
const digestOf = (image: string | undefined): string | undefined =>
  image?.match(/@(sha256:[a-f0-9]{64})$/)?.[1];

/** The stored registration's workspaces (none: cluster-wide); a new registration gets the defaults. */
const storedWorkspaces = (prev: Spec | undefined, defaultWorkspaces: readonly string[]): readonly string[] =>
  prev ? (prev.workspaces ?? []) : defaultWorkspaces;

/** A record naming an image and no endpoint is a sidecar (the webhook runs that image in the pod). */
const impliedMode = (body: RegistrationBody): Spec['deploymentMode'] =>
  body.image && !body.endpoint ? 'sidecar' : 'external';

/** Where it runs and for whom: the body's, else the stored, else the defaults. */
function placementOf(
  body: RegistrationBody,
  prev: Spec | undefined,
  defaultWorkspaces: readonly string[],
): Partial<Spec> {
  const deploymentMode = body.deployment_mode ?? prev?.deploymentMode ?? impliedMode(body);
  // A sidecar keeps its stored endpoint: the one its Gateway relays is pod-local.
  const endpoint =
    prev?.deploymentMode === 'sidecar' && deploymentMode === 'sidecar' ? prev.endpoint : body.endpoint;
  const workspaces = [...new Set(body.workspaces ?? storedWorkspaces(prev, defaultWorkspaces))].sort();
  return {
    deploymentMode,
    ...(endpoint ? { endpoint } : {}),
    ...(workspaces.length > 0 ? { workspaces } : {}),
  };
}

/** What it audits and when: the body's, else the stored, else the defaults. */
function kindOf(body: RegistrationBody, prev: Spec | undefined): Pick<Spec, 'category' | 'phase'> {
  return {
    category: body.category ?? prev?.category ?? 'security',
    phase: body.phase ?? prev?.phase ?? 'input_guarding',
  };
}

/**
 * The AuditorRegistration a registration body describes (an existing one
 * keeps its other fields). `defaultWorkspaces`: the scope of a new
 * registration whose body names none (none: cluster-wide).
 */
export function registrationFrom(
  body: RegistrationBody,
  existing?: AuditorRegistration,
  defaultWorkspaces: readonly string[] = [],
): AuditorRegistration {
  const prev = existing?.spec;
  const placement = placementOf(body, prev, defaultWorkspaces);
  // The minimal self-registration form names no auth: stated as `none` (earns `unverified`; decision 112).
  const auth = authOf(body, prev) ?? (placement.deploymentMode === 'external' ? { type: 'none' } : undefined);
  // endpoint and workspaces are re-derived: an absent one must not survive from `prev`.
  const { endpoint: _endpoint, workspaces: _workspaces, ...kept } = prev ?? ({} as Partial<Spec>);
  const spec = {
    ...kept,
    auditorId: body.auditor_id,
    ...kindOf(body, prev),
    ...placement,
    ...optionalFields(body),
    ...(auth ? { auth } : {}),
  } as Spec;
  return {
    apiVersion: API_VERSION,
    kind: 'AuditorRegistration',
    metadata: existing ? { ...existing.metadata } : { name: body.auditor_id },
    spec,
  } as AuditorRegistration;
}

/**
 * The URL the Verifier fetches the vocabulary from: the request's
 * `vocabulary_url`, except for a sidecar, whose URL is pod-local (its
 * vocabulary is known from its image; decision 113). Undefined: nothing fetched.
 */
export function vocabularySource(body: RegistrationBody, reg: AuditorRegistration): string | undefined {
  return reg.spec.deploymentMode === 'sidecar' ? undefined : body.vocabulary_url;
}

/** `reg` with a fetched vocabulary's claims; the body's own phases and version win over the declaration's. */
export function withVocabulary(
  reg: AuditorRegistration,
  body: RegistrationBody,
  synced: SyncedVocabulary,
): AuditorRegistration {
  const phases = body.supported_phases ?? synced.phases;
  const version = body.version ?? synced.version;
  return {
    ...reg,
    spec: {
      ...reg.spec,
      claims: synced.claims,
      ...(phases ? { supportedPhases: phases } : {}),
      ...(version ? { version } : {}),
    },
  };
}

/** Why a registration's placement cannot work ('' when it can): what the apiserver's rule would say, first. */
export function placementProblem(spec: AuditorRegistration['spec']): string {
  if (spec.deploymentMode === 'sidecar' && !spec.image)
    return `a sidecar auditor is registered with its image (the webhook runs it in the pod); ${spec.auditorId} names none`;
  if (spec.deploymentMode !== 'sidecar' && !spec.endpoint)
    return `an ${spec.deploymentMode} auditor is registered with its endpoint; ${spec.auditorId} names none`;
  return '';
}
