// Pure: the order `platform apply` writes objects in, and how it names them.
// What others refer to comes first: namespaces, then the other core kinds
// (Secrets, ConfigMaps…), then the platform kinds from the Organization down
// to the agents and what hangs off them (docs/cli.md, decision 191).
import { GROUP } from '../../contract/kube.ts';

/** The platform kinds in apply order; a kind not listed goes after them all. */
export const PLATFORM_KIND_ORDER = [
  'Organization',
  'AuditorRegistration',
  'ModelRegistration',
  'AppCatalogEntry',
  'AuditorPolicy',
  'ScopedCredential',
  'ScopedToolInstall',
  'PlatformWorkspace',
  'PlatformEnvironment',
  'PlatformAgent',
  'AgentInstalledApp',
  'ConsentRequest',
  'DelegationGrant',
  'ApprovalRequest',
  'Workflow',
] as const;

export const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';

/** 0 Namespace, 1 CustomResourceDefinition, 2 other non-platform kinds, then the platform kinds in order. */
export function kindRank(apiVersion: string, kind: string): number {
  if (groupOf(apiVersion) !== GROUP) {
    if (apiVersion === 'v1' && kind === 'Namespace') return 0;
    return kind === 'CustomResourceDefinition' ? 1 : 2;
  }
  const i = (PLATFORM_KIND_ORDER as readonly string[]).indexOf(kind);
  return 3 + (i < 0 ? PLATFORM_KIND_ORDER.length : i);
}

export interface Ordered {
  apiVersion: string;
  kind: string;
  /** Position in the input (file order, then document order). */
  index: number;
}

/** A stable sort by kind rank: objects of one rank keep their input order. */
export function applyOrder<T extends Ordered>(objects: readonly T[]): T[] {
  return [...objects].sort(
    (a, b) => kindRank(a.apiVersion, a.kind) - kindRank(b.apiVersion, b.kind) || a.index - b.index,
  );
}

/** kubectl's name of an object: `platformagent.platform.io/release-bot`, `namespace/acme`. */
export function objectRef(apiVersion: string, kind: string, name: string): string {
  const group = groupOf(apiVersion);
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}
