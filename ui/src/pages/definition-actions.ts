// The definition editor's calls: validate and apply through the facade, and
// the file download. Thin.
import { announceChange, call } from '../api.ts';
import { ApiError, describeError } from '../errors.ts';
import type { FieldError } from './definition-inputs.tsx';

export interface Validated {
  valid: boolean;
  errors: FieldError[];
  resources: { kind: string; namespace: string; name: string }[];
}

export interface Applied {
  results: { kind: string; namespace: string; name: string; outcome: string }[];
}

export interface Target {
  text: string;
  namespace: string;
  file: string;
}

export const validateDefinition = (t: Target): Promise<Validated> =>
  call<Validated>('POST', '/v1/definitions/validate', t);

export const applyDefinition = (t: Target, force: boolean): Promise<Applied> =>
  call<Applied>('POST', '/v1/definitions/apply', force ? { ...t, force } : t);

/** Saves `text` as a file named `name` (the browser's download). */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `PlatformAgent default/bot created` for each result. */
export const appliedWords = (a: Applied): string =>
  a.results.map((r) => `${r.kind} ${r.namespace}/${r.name} ${r.outcome}`).join('; ');

/** What the toolbar shows after Validate or Apply. */
export interface Outcome {
  words?: string;
  failure?: string;
  /** A field another manager set: offer to take it over. */
  conflict?: boolean;
  applied?: Applied;
}

const refs = (v: Validated): string =>
  v.resources.map((r) => `${r.kind} ${r.namespace}/${r.name}`).join('; ');

/** Validates (the errors go to `onErrors`, beside the YAML and the form), then applies when asked. */
export async function checkAndApply(
  target: Target,
  how: { apply: boolean; force: boolean },
  onErrors: (errors: FieldError[]) => void,
): Promise<Outcome> {
  try {
    const checked = await validateDefinition(target);
    onErrors(checked.errors);
    if (!checked.valid) {
      return { failure: `${checked.errors.length} problem(s) found: see beside the YAML and in the form.` };
    }
    if (!how.apply) return { words: `Valid: ${refs(checked)}.` };
    const applied = await applyDefinition(target, how.force);
    announceChange();
    return { words: `Applied: ${appliedWords(applied)}.`, applied };
  } catch (err) {
    return {
      failure: describeError(err),
      conflict: err instanceof ApiError && err.code === 'field_conflict',
    };
  }
}
