// Pure: the chart's values, placed into the objects of config/default. Each
// knob is a field the overlays change (image, notarization, failurePolicy,
// runtime class, evidence database) or one a cluster sizes (replicas,
// resources); its default is read from the base, so the chart's defaults are
// the base's and a change to config/ shows in the chart after regeneration.
import type { TemplateBuilder } from './template.ts';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

interface EnvVar {
  name: string;
  value?: string;
  [key: string]: unknown;
}
interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  env?: EnvVar[];
  resources?: unknown;
}
interface DeploymentShape {
  spec: { replicas?: number; template: { spec: { containers: Container[] } } };
}

/** The three roles: the values key, their Deployment and container. */
export const ROLES = [
  { key: 'operator', deployment: 'platform-operator', container: 'operator' },
  { key: 'webhook', deployment: 'platform-webhook', container: 'webhook' },
  { key: 'verifier', deployment: 'platform-verifier', container: 'api' },
] as const;
export type RoleKey = (typeof ROLES)[number]['key'];

/** The defaults of values.yaml, as read from the base. */
export interface ChartDefaults {
  image: { repository: string; tag: string; pullPolicy: string };
  agentImage: { repository: string; tag: string };
  modelServer: { image: string; args: string };
  strictNotarization: boolean;
  webhookFailurePolicy: string;
  agentRuntimeClass: string;
  roles: Record<RoleKey, { replicas: number; resources: unknown }>;
}

export const IMAGE_EXPR = 'printf "%s:%s" .Values.image.repository .Values.image.tag | quote';
const AGENT_IMAGE_EXPR = 'printf "%s:%s" .Values.agentImage.repository .Values.agentImage.tag | quote';

function container(objects: K8sObject[], deployment: string, name: string): Container {
  const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === deployment);
  if (!d) throw new Error(`config/default has no Deployment ${deployment}`);
  const c = (d as unknown as DeploymentShape).spec.template.spec.containers.find((x) => x.name === name);
  if (!c) throw new Error(`Deployment ${deployment} has no container ${name}`);
  return c;
}

function deploymentSpec(objects: K8sObject[], deployment: string): DeploymentShape['spec'] {
  const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === deployment);
  return (d as unknown as DeploymentShape).spec;
}

/** Replaces the value of env var `name` by a placeholder and returns the value it had. */
function envKnob(c: Container, name: string, placeholder: string): string {
  const entry = c.env?.find((e) => e.name === name);
  if (entry?.value === undefined) throw new Error(`container ${c.name} sets no value for ${name}`);
  const was = entry.value;
  entry.value = placeholder;
  return was;
}

/** `repo/name:tag` → its repository and tag (a registry port is not a tag). */
export function splitImage(image: string): { repository: string; tag: string } {
  const colon = image.lastIndexOf(':');
  if (colon <= image.lastIndexOf('/') || image.includes('@'))
    throw new Error(`image ${image} has no tag: config/manager names images as repository:tag`);
  return { repository: image.slice(0, colon), tag: image.slice(colon + 1) };
}

function roleKnobs(objects: K8sObject[], t: TemplateBuilder): Pick<ChartDefaults, 'image' | 'roles'> {
  const images = new Set<string>();
  const policies = new Set<string>();
  const roles = {} as ChartDefaults['roles'];
  for (const role of ROLES) {
    const spec = deploymentSpec(objects, role.deployment);
    const c = container(objects, role.deployment, role.container);
    roles[role.key] = { replicas: spec.replicas ?? 1, resources: c.resources ?? {} };
    spec.replicas = t.scalar(`.Values.${role.key}.replicas`) as unknown as number;
    c.resources = t.block(`.Values.${role.key}.resources`);
    images.add(c.image ?? '');
    policies.add(c.imagePullPolicy ?? '');
    c.image = t.scalar(IMAGE_EXPR);
    c.imagePullPolicy = t.scalar('.Values.image.pullPolicy | quote');
  }
  if (images.size !== 1 || policies.size !== 1)
    throw new Error(`the roles' Deployments differ in image or imagePullPolicy: ${[...images, ...policies]}`);
  const [image] = images;
  const [pullPolicy] = policies;
  return { image: { ...splitImage(image!), pullPolicy: pullPolicy! }, roles };
}

function webhookFailurePolicy(objects: K8sObject[], t: TemplateBuilder): string {
  const seen = new Set<string>();
  for (const o of objects) {
    if (!o.kind.endsWith('WebhookConfiguration')) continue;
    for (const w of (o.webhooks ?? []) as { failurePolicy?: string }[]) {
      seen.add(w.failurePolicy ?? 'Fail');
      w.failurePolicy = t.scalar('.Values.webhookFailurePolicy | quote');
    }
  }
  if (seen.size !== 1)
    throw new Error(`the base's webhooks differ in failurePolicy: ${[...seen].join(', ')}`);
  return [...seen][0]!;
}

const DATABASE_ENV = 'DATABASE_URL';

/** The Verifier's DATABASE_URL from a Secret, first in its env (where the production overlay's patch puts it). */
function evidenceDatabase(objects: K8sObject[], t: TemplateBuilder): void {
  const c = container(objects, 'platform-verifier', 'api');
  if (c.env?.some((e) => e.name === DATABASE_ENV))
    throw new Error(
      `the base already sets ${DATABASE_ENV}; the chart's evidenceDatabase value would repeat it`,
    );
  const item = {
    name: DATABASE_ENV,
    valueFrom: {
      secretKeyRef: {
        name: t.scalar('.Values.evidenceDatabase.secretName | quote'),
        key: t.scalar('.Values.evidenceDatabase.key | quote'),
      },
    },
  };
  c.env = [t.item('.Values.evidenceDatabase.secretName', item) as unknown as EnvVar, ...(c.env ?? [])];
}

/**
 * Settings the base leaves unset (the code's defaults apply), each an env var
 * present only when its value is non-empty: the agents' model and the injected
 * sidecars' resources, what a cluster sets for its own model and its size.
 */
export const OPTIONAL_ENV = [
  { role: 'webhook', env: 'PLATFORM_MODEL_URL', value: '.Values.model.url' },
  { role: 'webhook', env: 'PLATFORM_WEBHOOK_MODEL_PORTS', value: '.Values.model.ports' },
  { role: 'webhook', env: 'PLATFORM_SIDECAR_CPU_REQUEST', value: '.Values.sidecarResources.requests.cpu' },
  {
    role: 'webhook',
    env: 'PLATFORM_SIDECAR_MEMORY_REQUEST',
    value: '.Values.sidecarResources.requests.memory',
  },
  { role: 'webhook', env: 'PLATFORM_SIDECAR_CPU_LIMIT', value: '.Values.sidecarResources.limits.cpu' },
  { role: 'webhook', env: 'PLATFORM_SIDECAR_MEMORY_LIMIT', value: '.Values.sidecarResources.limits.memory' },
  { role: 'operator', env: 'PLATFORM_MODEL_URL', value: '.Values.model.url' },
] as const;

function optionalEnv(objects: K8sObject[], t: TemplateBuilder): void {
  for (const knob of OPTIONAL_ENV) {
    const role = ROLES.find((r) => r.key === knob.role)!;
    const c = container(objects, role.deployment, role.container);
    if (c.env?.some((e) => e.name === knob.env))
      throw new Error(
        `the base already sets ${knob.env} of ${role.deployment}; the chart's ${knob.value} would repeat it`,
      );
    const item = { name: knob.env, value: t.scalar(`${knob.value} | quote`) };
    c.env = [...(c.env ?? []), t.item(knob.value, item) as unknown as EnvVar];
  }
}

/** Puts every knob into `objects` (mutated) and returns the defaults the base had. */
export function applyKnobs(objects: K8sObject[], t: TemplateBuilder): ChartDefaults {
  const { image, roles } = roleKnobs(objects, t);
  const operator = container(objects, 'platform-operator', 'operator');
  const webhook = container(objects, 'platform-webhook', 'webhook');
  const platformImage = envKnob(webhook, 'PLATFORM_IMAGE', t.scalar(IMAGE_EXPR));
  if (platformImage !== `${image.repository}:${image.tag}`)
    throw new Error(`the webhook's PLATFORM_IMAGE ${platformImage} is not the roles' image`);
  const strict = envKnob(
    webhook,
    'PLATFORM_STRICT_NOTARIZATION',
    t.scalar('.Values.strictNotarization | quote'),
  );
  const defaults: ChartDefaults = {
    image,
    agentImage: splitImage(envKnob(operator, 'PLATFORM_AGENT_IMAGE', t.scalar(AGENT_IMAGE_EXPR))),
    modelServer: {
      image: envKnob(operator, 'PLATFORM_MODEL_SERVER_IMAGE', t.scalar('.Values.modelServer.image | quote')),
      args: envKnob(operator, 'PLATFORM_MODEL_SERVER_ARGS', t.scalar('.Values.modelServer.args | quote')),
    },
    strictNotarization: strict === 'true',
    webhookFailurePolicy: webhookFailurePolicy(objects, t),
    agentRuntimeClass: envKnob(
      operator,
      'PLATFORM_AGENT_RUNTIME_CLASS',
      t.scalar('.Values.agentRuntimeClass | quote'),
    ),
    roles,
  };
  evidenceDatabase(objects, t);
  optionalEnv(objects, t);
  return defaults;
}
