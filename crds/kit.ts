// The shape of one kind's single source of truth. From a KindDefinition the
// generator (hack/generate.ts) writes the CRD YAML and the TypeScript types,
// and crds/validators.ts builds the ajv validators the API and webhooks use.

import { GROUP, VERSION } from '../contract/kube.ts';

export const CATEGORY = 'platform';

/** A structural OpenAPI v3 schema as Kubernetes accepts it (a JSON Schema subset plus x-kubernetes-* keys). */
export type JSONSchema = { [key: string]: unknown };

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface KindDefinition {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  scope: 'Namespaced' | 'Cluster';
  /** Why this scope (recorded in docs/decisions.md too). */
  scopeReason: string;
  spec: JSONSchema;
  status: JSONSchema;
  printerColumns: PrinterColumn[];
  /** CEL rules on the whole object (x-kubernetes-validations at the root). */
  validations?: { rule: string; message: string }[];
}

/** The standard Kubernetes condition, shared by every kind's status. */
export const conditionSchema: JSONSchema = {
  type: 'object',
  required: ['type', 'status', 'reason', 'lastTransitionTime'],
  properties: {
    type: { type: 'string', maxLength: 316 },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string', maxLength: 1024 },
    message: { type: 'string', maxLength: 32768 },
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
  },
};

export const conditionsSchema: JSONSchema = {
  type: 'array',
  items: conditionSchema,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
};

/**
 * Every kind reports a `Ready` condition (docs/gitops.md lists what it means
 * per kind); `kubectl get` shows its status in this column, before Age.
 */
export const READY_COLUMN: PrinterColumn = {
  name: 'Ready',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].status',
  description: 'The status of the Ready condition: True, False or Unknown.',
};

export function crdName(def: KindDefinition): string {
  return `${def.plural}.${GROUP}`;
}

/** Builds the CustomResourceDefinition object for a kind. */
export function toCustomResourceDefinition(def: KindDefinition): Record<string, unknown> {
  const root: JSONSchema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: def.spec,
      status: def.status,
    },
  };
  if (def.validations?.length) root['x-kubernetes-validations'] = def.validations;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName(def) },
    spec: {
      group: GROUP,
      names: {
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural: def.plural,
        singular: def.singular,
        shortNames: def.shortNames,
        categories: [CATEGORY],
      },
      scope: def.scope,
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: root },
          subresources: { status: {} },
          additionalPrinterColumns: [
            ...def.printerColumns,
            READY_COLUMN,
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}
