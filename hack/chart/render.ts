// Pure: the files of charts/agent-platform from the kustomize sources: the
// objects of config/default (`kubectl kustomize`), the objects the production
// overlay adds (NetworkPolicies, behind a value), the generated CRDs (the
// chart's crds/) and the project version.
import { applyKnobs, type K8sObject } from './knobs.ts';
import { TemplateBuilder, withNamespaceToken, wrapIf } from './template.ts';
import {
  CHART_DIR,
  chartYaml,
  HEADER,
  NOTES,
  VALUES_DEV,
  VALUES_PRODUCTION,
  valuesSchema,
  valuesYaml,
} from './values.ts';

export interface ChartSources {
  /** `kubectl kustomize config/default`. */
  base: K8sObject[];
  /** Objects `kubectl kustomize config/overlays/production` has and the base has not. */
  productionExtras: K8sObject[];
  /** CRD file name → its YAML (crds/generated). */
  crds: Record<string, string>;
  version: string;
}

/** The namespace config/ installs into; the chart uses the release namespace instead. */
export const CONFIG_NAMESPACE = 'platform-system';

/** Base objects by template file: one file per kind. */
function byKind(objects: K8sObject[]): Map<string, K8sObject[]> {
  const out = new Map<string, K8sObject[]>();
  for (const o of objects) {
    const file = `${o.kind.toLowerCase()}s.yaml`;
    out.set(file, [...(out.get(file) ?? []), o]);
  }
  return out;
}

function productionTemplates(extras: K8sObject[]): string {
  const unknown = extras.filter((o) => o.kind !== 'NetworkPolicy');
  if (unknown.length > 0)
    throw new Error(
      `the production overlay adds ${unknown.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}, which no chart value covers (hack/chart)`,
    );
  const t = new TemplateBuilder();
  return wrapIf('.Values.networkPolicies.enabled', t.render(withNamespaceToken(extras, CONFIG_NAMESPACE)));
}

function templates(sources: ChartSources): { files: Record<string, string>; values: string } {
  const objects = structuredClone(sources.base).filter((o) => o.kind !== 'CustomResourceDefinition');
  const namespaces = objects.filter((o) => o.kind === 'Namespace');
  if (namespaces.length !== 1 || namespaces[0]?.metadata.name !== CONFIG_NAMESPACE)
    throw new Error(`config/default must create exactly the namespace ${CONFIG_NAMESPACE}`);
  const t = new TemplateBuilder();
  const defaults = applyKnobs(objects, t);
  const files: Record<string, string> = {};
  for (const [file, docs] of byKind(objects)) {
    const text = t.render(withNamespaceToken(docs, CONFIG_NAMESPACE));
    files[file] = file === 'namespaces.yaml' ? wrapIf('.Values.createNamespace', text) : text;
  }
  files['network-policies.yaml'] = productionTemplates(sources.productionExtras);
  return { files, values: valuesYaml(defaults) };
}

export function chartFiles(sources: ChartSources): Record<string, string> {
  const { files, values } = templates(sources);
  const out: Record<string, string> = {
    [`${CHART_DIR}/Chart.yaml`]: chartYaml(sources.version),
    [`${CHART_DIR}/values.yaml`]: values,
    [`${CHART_DIR}/values.schema.json`]: valuesSchema(),
    [`${CHART_DIR}/values-dev.yaml`]: VALUES_DEV,
    [`${CHART_DIR}/values-production.yaml`]: VALUES_PRODUCTION,
    [`${CHART_DIR}/templates/NOTES.txt`]: NOTES,
  };
  for (const [file, text] of Object.entries(files)) out[`${CHART_DIR}/templates/${file}`] = HEADER + text;
  for (const [file, text] of Object.entries(sources.crds)) out[`${CHART_DIR}/crds/${file}`] = text;
  return out;
}

/** The CRD files of the generated files (crds/generated/*.yaml but its kustomization), by file name. */
export function crdFilesOf(generated: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, text] of Object.entries(generated)) {
    const m = /^crds\/generated\/([^/]+\.yaml)$/.exec(path);
    if (m && m[1] !== 'kustomization.yaml') out[m[1]!] = text;
  }
  return out;
}
