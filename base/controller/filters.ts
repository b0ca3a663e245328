// Change filters: a watch declares which changes of an object matter to its
// controller, seeing the object before and after an update, instead of the
// controller remembering what it saw last. Adds and deletes always pass.
import type { KubernetesObject } from '@kubernetes/client-node';
import { jsonEqual } from './conditions.ts';
import type { InformerEventType } from './informer.ts';

export interface ObjectEvent<T extends KubernetesObject = KubernetesObject> {
  type: InformerEventType;
  obj: T;
  /** The cached object an update replaced. */
  old?: T;
}

export type ChangeFilter = (event: ObjectEvent) => boolean;

/** An update whose before and after differ in `pick`; any other event passes. */
function changed(pick: (obj: KubernetesObject) => unknown): ChangeFilter {
  return ({ type, obj, old }) => type !== 'update' || !old || !jsonEqual(pick(old), pick(obj));
}

export const generationChanged: ChangeFilter = changed((o) => o.metadata?.generation);
export const labelsChanged: ChangeFilter = changed((o) => o.metadata?.labels ?? {});
export const deletionChanged: ChangeFilter = changed((o) => o.metadata?.deletionTimestamp ?? null);

export function annotationChanged(name: string): ChangeFilter {
  return changed((o) => o.metadata?.annotations?.[name] ?? null);
}

/** Passes when any of the filters passes. */
export function anyChange(...filters: ChangeFilter[]): ChangeFilter {
  return (event) => filters.some((f) => f(event));
}
