import { describe, expect, it } from 'vitest';
import { ALL_KINDS, kindDefinition } from './index.ts';
import {
  CATEGORY,
  READY_COLUMN,
  conditionsSchema,
  toCustomResourceDefinition,
  type JSONSchema,
} from './kit.ts';

/** Kubernetes' structural-schema rules that bite most often, checked before an apiserver sees them. */
function structuralProblems(schema: JSONSchema, path: string, out: string[]): string[] {
  out.push(...ownProblems(schema).map((p) => `${path}: ${p}`));
  for (const [k, v] of Object.entries((schema.properties ?? {}) as Record<string, JSONSchema>)) {
    structuralProblems(v, `${path}.${k}`, out);
  }
  if (schema.items) structuralProblems(schema.items as JSONSchema, `${path}[]`, out);
  if (typeof schema.additionalProperties === 'object') {
    structuralProblems(schema.additionalProperties as JSONSchema, `${path}{}`, out);
  }
  return out;
}

/** The rules broken by this schema node itself (not its children). */
function ownProblems(schema: JSONSchema): string[] {
  const anyValue =
    schema['x-kubernetes-preserve-unknown-fields'] === true || schema['x-kubernetes-int-or-string'];
  const rules: [boolean, string][] = [
    [!schema.type && !anyValue, 'no type'],
    [Boolean(schema.properties && schema.additionalProperties), 'properties and additionalProperties'],
    [
      schema.type === 'array' && schema['x-kubernetes-validations'] === undefined && !schema.items,
      'array without items',
    ],
  ];
  return rules.filter(([broken]) => broken).map(([, problem]) => problem);
}

function find(schema: JSONSchema, path: string[]): JSONSchema {
  let node = schema;
  for (const p of path) {
    node = p === '[]' ? (node.items as JSONSchema) : (node.properties as Record<string, JSONSchema>)[p]!;
  }
  return node;
}

describe('kind definitions', () => {
  it('defines the fifteen kinds of the issue, AgentInstalledApp as its own kind', () => {
    expect(ALL_KINDS.map((k) => k.kind).sort()).toEqual(
      [
        'PlatformWorkspace',
        'PlatformAgent',
        'PlatformEnvironment',
        'Organization',
        'AuditorPolicy',
        'ScopedCredential',
        'ScopedToolInstall',
        'DelegationGrant',
        'ConsentRequest',
        'ApprovalRequest',
        'AuditorRegistration',
        'ModelRegistration',
        'AppCatalogEntry',
        'AgentInstalledApp',
        'Workflow',
      ].sort(),
    );
  });

  it.each(ALL_KINDS.map((k) => [k.kind, k] as const))(
    '%s is a structural CRD in the platform category',
    (_, def) => {
      const crd = toCustomResourceDefinition(def) as {
        spec: { names: Record<string, unknown>; versions: Record<string, unknown>[] };
      };
      expect(crd.spec.names.categories).toEqual([CATEGORY]);
      expect(def.shortNames.length).toBeGreaterThan(0);
      expect(def.scopeReason.length).toBeGreaterThan(20);
      expect(crd.spec.versions[0]!.subresources).toEqual({ status: {} });
      expect(def.printerColumns.length).toBeGreaterThan(0);
      expect(structuralProblems(def.spec, 'spec', [])).toEqual([]);
      expect(structuralProblems(def.status, 'status', [])).toEqual([]);
    },
  );

  it('gives every kind distinct plural and short names', () => {
    const names = ALL_KINDS.flatMap((k) => [k.plural, ...k.shortNames]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('puts catalog-wide and org-wide kinds at cluster scope and the rest in namespaces', () => {
    const cluster = ALL_KINDS.filter((k) => k.scope === 'Cluster').map((k) => k.kind);
    expect(cluster.sort()).toEqual([
      'AppCatalogEntry',
      'AuditorRegistration',
      'ModelRegistration',
      'Organization',
    ]);
  });

  it('keeps PlatformAgent owners as {subject, role} with no minimum, so the last owner can be removed', () => {
    const agent = kindDefinition('PlatformAgent')!;
    const ownersSchema = find(agent.spec, ['owners']);
    expect(ownersSchema.minItems).toBeUndefined();
    expect(find(agent.spec, ['owners', '[]']).required).toEqual(['subject', 'role']);
    expect(find(agent.status, ['phase']).enum).toEqual(['pending', 'running', 'suspended']);
    expect(JSON.stringify(agent)).not.toMatch(/size\(self\.owners\)/);
  });

  it('shows phase, owner, trust tier and age for platformagents', () => {
    const crd = toCustomResourceDefinition(kindDefinition('PlatformAgent')!) as {
      spec: { versions: { additionalPrinterColumns: { name: string }[] }[] };
    };
    expect(crd.spec.versions[0]!.additionalPrinterColumns.map((c) => c.name)).toEqual(
      expect.arrayContaining(['Phase', 'Owner', 'Trust Tier', 'Age']),
    );
  });

  it.each(ALL_KINDS.map((k) => [k.kind, k] as const))(
    '%s has a status.conditions list and one Ready column (GitOps health, kubectl get)',
    (_, def) => {
      const crd = toCustomResourceDefinition(def) as {
        spec: { versions: { additionalPrinterColumns: { name: string; jsonPath: string }[] }[] };
      };
      expect(find(def.status, ['conditions'])).toBe(conditionsSchema);
      const ready = crd.spec.versions[0]!.additionalPrinterColumns.filter((c) => c.name === 'Ready');
      expect(ready).toEqual([READY_COLUMN]);
      expect(READY_COLUMN.jsonPath).toBe('.status.conditions[?(@.type=="Ready")].status');
    },
  );

  it('keeps the catalog phase and the request phase on separate fields', () => {
    const reg = kindDefinition('AuditorRegistration')!.spec;
    expect(find(reg, ['phase']).enum).toEqual([
      'artifact_safety',
      'input_guarding',
      'execution_monitoring',
      'output_policy',
    ]);
    expect(find(reg, ['supportedPhases', '[]']).enum).toEqual([
      'request',
      'response',
      'artifact',
      'execution',
    ]);
  });

  it('defaults the credential routing injection method to sidecar and approval to auto', () => {
    const rule = find(kindDefinition('PlatformAgent')!.spec, ['environment', 'credentialRouting', '[]']);
    expect(find(rule, ['injectionMethod'])).toMatchObject({
      enum: ['sidecar', 'client_credentials', 'token_exchange'],
      default: 'sidecar',
    });
    expect(find(rule, ['approval']).default).toBe('auto');
  });

  it('lets an Organization name the auditors each compliance framework requires', () => {
    const fw = find(kindDefinition('Organization')!.spec, ['frameworks', '[]']);
    expect(fw.required).toEqual(['name', 'requiredAuditors']);
  });
});
