// Pure: a definition file's document → the custom resources to apply, with a
// map from each resource's field paths back to the file's, so schema errors
// found on a resource point at the line the user wrote.
import type { Path } from './source.ts';
import { API_VERSION } from '../../contract/kube.ts';

export const DEFINITION_KINDS = ['PlatformWorkspace', 'PlatformAgent', 'PlatformEnvironment'] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];
/** Top-level sections a definition file may hold; any other is a free-form block, kept and not applied. */
export const KNOWN_SECTIONS = ['apiVersion', 'kind', 'metadata', 'spec', 'abilities', 'environment'] as const;

type Obj = Record<string, unknown>;
/** [path in the resource, path in the file]: the longest matching resource prefix is rewritten. */
export type Rename = [Path, Path];

export interface ConvertedResource {
  resource: Obj & { apiVersion: string; kind: string; metadata: Obj; spec: Obj };
  renames: Rename[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Renames `injection_method` to `injectionMethod` in a list of routing rules, recording where each came from. */
function normalizeRouting(rules: unknown, crPath: Path, filePath: Path, renames: Rename[]): unknown {
  if (!Array.isArray(rules)) return rules;
  return rules.map((rule, i) => {
    if (!isObj(rule) || !('injection_method' in rule)) return rule;
    const { injection_method: snake, ...rest } = rule;
    renames.push([
      [...crPath, i, 'injectionMethod'],
      [...filePath, i, 'injection_method'],
    ]);
    return { ...rest, injectionMethod: rest.injectionMethod ?? snake };
  });
}

function normalizeEnvironment(env: unknown, crPath: Path, filePath: Path, renames: Rename[]): unknown {
  if (!isObj(env)) return env;
  const out: Obj = { ...env };
  if ('credentialRouting' in env) {
    out.credentialRouting = normalizeRouting(
      env.credentialRouting,
      [...crPath, 'credentialRouting'],
      [...filePath, 'credentialRouting'],
      renames,
    );
  }
  if (Array.isArray(env.tools)) {
    out.tools = env.tools.map((tool, i) =>
      isObj(tool) && 'credentialRouting' in tool
        ? {
            ...tool,
            credentialRouting: normalizeRouting(
              tool.credentialRouting,
              [...crPath, 'tools', i, 'credentialRouting'],
              [...filePath, 'tools', i, 'credentialRouting'],
              renames,
            ),
          }
        : tool,
    );
  }
  return out;
}

/** Moves top-level `abilities`/`environment` under spec and renames snake_case spellings. */
export function normalizeSpec(file: Obj, renames: Rename[]): Obj {
  const spec: Obj = isObj(file.spec) ? { ...file.spec } : {};
  for (const section of ['abilities', 'environment'] as const) {
    if (section in file && !(section in spec)) {
      spec[section] = file[section];
      renames.push([['spec', section], [section]]);
    }
  }
  if ('deployment_type' in spec) {
    const { deployment_type: snake, ...rest } = spec;
    Object.assign(spec, { deploymentType: rest.deploymentType ?? snake });
    delete spec.deployment_type;
    renames.push([
      ['spec', 'deploymentType'],
      ['spec', 'deployment_type'],
    ]);
  }
  const envFilePath = renames.some((r) => r[1][0] === 'environment')
    ? ['environment']
    : ['spec', 'environment'];
  spec.environment = normalizeEnvironment(spec.environment, ['spec', 'environment'], envFilePath, renames);
  if (spec.environment === undefined) delete spec.environment;
  if (Array.isArray(spec.agents)) {
    spec.agents = spec.agents.map((agent, i) =>
      isObj(agent) && 'environment' in agent
        ? {
            ...agent,
            environment: normalizeEnvironment(
              agent.environment,
              ['spec', 'agents', i, 'environment'],
              ['spec', 'agents', i, 'environment'],
              renames,
            ),
          }
        : agent,
    );
  }
  return spec;
}

function metadataOf(file: Obj, namespace: string | undefined): Obj {
  const meta = isObj(file.metadata) ? file.metadata : {};
  const out: Obj = { name: meta.name };
  if (namespace !== undefined) out.namespace = namespace;
  for (const key of ['labels', 'annotations'] as const) if (isObj(meta[key])) out[key] = meta[key];
  return out;
}

/**
 * The resource a definition file stands for, of its own kind. A workspace's
 * `spec.agents[]` stay inside the workspace: the workspace controller creates
 * one PlatformAgent per entry, so `kubectl apply` and GitOps of a workspace
 * work without this library (docs/decisions.md).
 */
export function toResources(file: Obj, namespace?: string): ConvertedResource[] {
  const renames: Rename[] = [];
  const spec = normalizeSpec(file, renames);
  const metadata = metadataOf(file, namespace);
  return [{ resource: { apiVersion: API_VERSION, kind: String(file.kind), metadata, spec }, renames }];
}

/** The file path of a resource path, through the longest matching rename. */
export function fileFieldPath(path: Path, renames: readonly Rename[]): Path {
  let best: Rename | undefined;
  for (const r of renames) {
    const [cr] = r;
    if (cr.length > path.length || !cr.every((seg, i) => seg === path[i])) continue;
    if (!best || cr.length > best[0].length) best = r;
  }
  return best ? [...best[1], ...path.slice(best[0].length)] : path;
}
