// Model registration (spec: Auditor and model registration records): the
// request body (snake_case) and the cluster-scoped ModelRegistration it
// becomes. Pure.
import { createHash } from 'node:crypto';
import type { ModelRegistration } from '../../crds/generated/types.ts';
import { DIGEST_PATTERN } from '../../crds/schema/parts.ts';
import { API_VERSION } from '../../contract/kube.ts';

type Spec = ModelRegistration['spec'];

export interface ModelBody {
  model_id: string;
  deployment_mode: Spec['deploymentMode'];
  model_type?: Spec['modelType'];
  endpoint?: string;
  image?: string;
  image_digest?: string;
  auth?: { type: 'mtls' | 'api_key' | 'none'; cert_pem?: string; secret_ref?: { name: string; key: string } };
}

const K8S_NAME = '^[a-z0-9]([-a-z0-9]{0,251}[a-z0-9])?$';

export const MODEL_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['model_id', 'deployment_mode'],
  properties: {
    model_id: { type: 'string', minLength: 1, maxLength: 253, pattern: '^[\\x21-\\x7e]+$' },
    deployment_mode: { enum: ['sidecar', 'in-cluster', 'external'] },
    model_type: { enum: ['chat', 'completion', 'embedding', 'classifier'] },
    endpoint: { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https?://' },
    image: { type: 'string', minLength: 1, maxLength: 512 },
    image_digest: { type: 'string', pattern: DIGEST_PATTERN },
    auth: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: { enum: ['mtls', 'api_key', 'none'] },
        cert_pem: { type: 'string', minLength: 1, maxLength: 16384 },
        secret_ref: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'key'],
          properties: {
            name: { type: 'string', pattern: K8S_NAME, maxLength: 253 },
            key: { type: 'string', minLength: 1, maxLength: 253, pattern: '^[-._a-zA-Z0-9]+$' },
          },
        },
      },
    },
  },
};

/**
 * The object name for a model id: the id itself when it is a valid name, else
 * a cleaned-up form plus a hash of the id (so `meta/Llama-3` and
 * `meta-llama-3` never share an object).
 */
export function modelObjectName(modelId: string): string {
  if (new RegExp(K8S_NAME).test(modelId) && modelId.length <= 200) return modelId;
  const hash = createHash('sha256').update(modelId).digest('hex').slice(0, 10);
  const cleaned = modelId
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '');
  return cleaned ? `${cleaned}-${hash}` : `model-${hash}`;
}

/** The first thing the body is missing for its deployment mode (the CRD's own rules, answered as a 422), or ''. */
export function modelBodyProblem(body: ModelBody): string {
  if (body.deployment_mode === 'sidecar' && !body.image) return 'a sidecar model needs image';
  if (body.deployment_mode !== 'sidecar' && !body.endpoint)
    return `an ${body.deployment_mode} model needs endpoint`;
  return authProblem(body.auth);
}

function authProblem(auth: ModelBody['auth']): string {
  if (auth?.type === 'mtls' && !auth.cert_pem) return 'mtls auth needs cert_pem';
  if (auth?.type === 'api_key' && !auth.secret_ref) return 'api_key auth needs secret_ref';
  return '';
}

function authOf(body: ModelBody): Spec['auth'] {
  // An external model without auth is stated as `none` (earns `unverified`; decision 112).
  if (!body.auth) return body.deployment_mode === 'external' ? { type: 'none' } : undefined;
  return {
    type: body.auth.type,
    ...(body.auth.cert_pem ? { certPem: body.auth.cert_pem } : {}),
    ...(body.auth.secret_ref ? { secretRef: body.auth.secret_ref } : {}),
  };
}

/** The ModelRegistration a body describes; a registration of the same model is replaced whole. */
export function modelRegistrationFrom(body: ModelBody, existing?: ModelRegistration): ModelRegistration {
  const auth = authOf(body);
  const fields: Partial<Spec> = {
    modelType: body.model_type,
    endpoint: body.endpoint,
    image: body.image,
    imageDigest: body.image_digest,
  };
  const spec = {
    modelId: body.model_id,
    deploymentMode: body.deployment_mode,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    ...(auth ? { auth } : {}),
  } as Spec;
  return {
    apiVersion: API_VERSION,
    kind: 'ModelRegistration',
    metadata: existing ? { ...existing.metadata } : { name: modelObjectName(body.model_id) },
    spec,
  } as ModelRegistration;
}
