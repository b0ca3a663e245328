// The images this project builds without Docker, and what each one is made
// of. The platform image's config mirrors the Dockerfile's final stage (labels,
// user, workdir, env, entrypoint, cmd); a unit test keeps the two in step.
import type { ContainerConfig } from './oci.ts';

export type ImageId = 'platform' | 'agent-runtime' | 'pause';
export const IMAGE_IDS: readonly ImageId[] = ['platform', 'agent-runtime', 'pause'];

/** Bottom to top: what changes least goes lowest, so a code change rebuilds one layer. */
export type LayerId = 'runtime' | 'deps' | 'app' | 'pause';
export const LAYER_IDS: readonly LayerId[] = ['runtime', 'deps', 'app', 'pause'];

export const IMAGE_NAME: Record<ImageId, string> = {
  platform: 'localhost/agent-platform/platform:dev',
  'agent-runtime': 'localhost/agent-platform/agent-runtime:dev',
  pause: 'localhost/agent-platform/pause:3.10',
};

export interface ImageDefinition {
  id: ImageId;
  name: string;
  layers: readonly LayerId[];
  config: ContainerConfig;
}

export interface DefinitionInputs {
  /** The project version (package.json), as the Dockerfile's VERSION. */
  version: string;
  /** The Node.js version in the runtime layer, without the `v`. */
  nodeVersion: string;
}

/** The PATH of the official node images, which the Dockerfile inherits. */
export const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const APP_USER = '1000:1000';
export const PAUSE_USER = '65535:65535';

function platformLabels(version: string): Record<string, string> {
  return {
    'org.opencontainers.image.title': 'agent-platform',
    'org.opencontainers.image.description':
      'Agent platform operator, webhook and built-in auditors (role as argument)',
    'org.opencontainers.image.licenses': 'Apache-2.0',
    'org.opencontainers.image.version': version,
    'io.platform.auditor': 'true',
    'io.platform.schema_version': '2.0',
    'io.platform.phase': 'request',
    'io.platform.interfaces': 'health,claims,vocabulary',
  };
}

function nodeConfig(inputs: DefinitionInputs, title: string, cmd: string[]): ContainerConfig {
  return {
    User: APP_USER,
    ExposedPorts: { '8080/tcp': {} },
    Env: [`PATH=${IMAGE_PATH}`, `NODE_VERSION=${inputs.nodeVersion}`, 'NODE_ENV=production'],
    Entrypoint: ['node', '/app/bin/platform.js'],
    Cmd: cmd,
    WorkingDir: '/app',
    Labels: { ...platformLabels(inputs.version), 'org.opencontainers.image.title': title },
  };
}

export function imageDefinitions(inputs: DefinitionInputs): Record<ImageId, ImageDefinition> {
  const nodeLayers: LayerId[] = ['runtime', 'deps', 'app'];
  return {
    platform: {
      id: 'platform',
      name: IMAGE_NAME.platform,
      layers: nodeLayers,
      config: nodeConfig(inputs, 'agent-platform', ['run', 'auditor', 'model-context']),
    },
    'agent-runtime': {
      id: 'agent-runtime',
      name: IMAGE_NAME['agent-runtime'],
      layers: nodeLayers,
      config: nodeConfig(inputs, 'agent-platform-agent-runtime', ['run', 'agent']),
    },
    pause: {
      id: 'pause',
      name: IMAGE_NAME.pause,
      layers: ['pause'],
      config: {
        User: PAUSE_USER,
        Entrypoint: ['/pause'],
        Labels: {
          'org.opencontainers.image.title': 'agent-platform-pause',
          'org.opencontainers.image.description': 'Pod sandbox process: waits for signals, reaps children',
          'org.opencontainers.image.licenses': 'Apache-2.0',
        },
      },
    },
  };
}

/** Parses `--only platform,pause`; every name must be an image id. */
export function parseImageIds(list: string): ImageId[] {
  const ids = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !(IMAGE_IDS as readonly string[]).includes(id));
  if (unknown.length > 0 || ids.length === 0)
    throw new Error(
      `--only takes a comma-separated list of ${IMAGE_IDS.join(', ')}; got ${JSON.stringify(list)}`,
    );
  return IMAGE_IDS.filter((id) => ids.includes(id));
}

/** The layers the chosen images need, bottom to top, each once. */
export function layersFor(definitions: readonly ImageDefinition[]): LayerId[] {
  return LAYER_IDS.filter((layer) => definitions.some((d) => d.layers.includes(layer)));
}
