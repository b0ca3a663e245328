// A definition file sent to the facade (the UI's definition editor, decision
// 282): every YAML document in it validated as `platform apply` validates a
// definition file (crds/definitions), each error at its line and column in
// the file's words, and the resources to apply, each in its document's
// namespace (`metadata.namespace`, else the one the request names). Only the
// three definition kinds are accepted here. Pure.
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { formatError, type DefinitionError } from '../../crds/definitions/errors.ts';
import { parseSource } from '../../crds/definitions/source.ts';
import { loadDefinitionDocument, type Resource } from '../../crds/definitions/validate.ts';

export interface LoadedDefinitions {
  errors: (DefinitionError & { text: string })[];
  /** Complete only when there is no error. */
  resources: Resource[];
}

export interface LoadSettings {
  /** The file's name in errors. */
  file: string;
  /** Where a document without `metadata.namespace` goes. */
  namespace: string;
  /** Registered auditor ids (besides the built-ins). */
  knownAuditors: readonly string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function namespaceOf(value: unknown, fallback: string): string {
  const meta = isObj(value) && isObj(value.metadata) ? value.metadata : {};
  return typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : fallback;
}

/** Every error of the file (sorted by position) and, when there is none, its resources. */
export function loadDefinitions(text: string, settings: LoadSettings): LoadedDefinitions {
  const { docs, errors } = parseSource(text, settings.file);
  // The first syntax error; the ones after it are mostly its echoes (as `platform apply` prints).
  const all: DefinitionError[] = errors.slice(0, 1);
  const resources: Resource[] = [];
  const known = [...new Set([...BUILTIN_AUDITOR_IDS, ...settings.knownAuditors])];
  const present = docs.filter((d) => d.value !== null && d.value !== undefined);
  if (present.length === 0 && all.length === 0) {
    all.push({ file: settings.file, line: 1, column: 1, path: '', message: 'the file holds no document' });
  }
  for (const src of present) {
    const found = loadDefinitionDocument(src, {
      file: settings.file,
      knownAuditors: known,
      applyDefaults: false,
      namespace: namespaceOf(src.value, settings.namespace),
    });
    all.push(...found.errors);
    resources.push(...found.resources);
  }
  all.sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    errors: all.map((e) => ({ ...e, text: formatError(e) })),
    resources: all.length > 0 ? [] : resources,
  };
}

/** `PlatformAgent default/release-bot`: how answers and errors name a resource. */
export const resourceRef = (r: Resource): string =>
  `${r.kind} ${String(r.metadata.namespace ?? '')}/${String(r.metadata.name ?? '')}`;
