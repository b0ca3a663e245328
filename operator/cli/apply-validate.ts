// Pure: every input file of `platform apply` parsed and validated before
// anything is sent, each error at its file, line and column. A document is a
// definition file (PlatformWorkspace, PlatformAgent, PlatformEnvironment:
// converted as crds/definitions does), another platform resource (checked
// against its kind's schema), or any other Kubernetes object (a Namespace, a
// Secret…), sent as written for the apiserver to check.
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { DEFINITION_KINDS } from '../../crds/definitions/convert.ts';
import { formatError, type DefinitionError } from '../../crds/definitions/errors.ts';
import { errorAt, locate, parseSource, type SourceDocument } from '../../crds/definitions/source.ts';
import { loadDefinitionDocument, resourceDocumentErrors } from '../../crds/definitions/validate.ts';
import { GROUP } from '../../contract/kube.ts';
import { groupOf, objectRef } from './apply-order.ts';

type Obj = Record<string, unknown>;

export interface InputFile {
  /** As the user named it (`<stdin>` for `-f -`). */
  file: string;
  text: string;
}

export interface ApplyObject {
  apiVersion: string;
  kind: string;
  name: string;
  /** As written (or the definition file's); the default namespace is filled in later, by the kind's scope. */
  namespace?: string;
  body: Obj;
  /** `file:line` of the document. */
  at: string;
  /** Position in the input. */
  index: number;
}

export interface Validated {
  objects: ApplyObject[];
  errors: DefinitionError[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const UNKNOWN_AUDITOR = ['settings for an auditor that does not exist', 'auditor does not exist'];

/** True when some error names an auditor the validation did not know (it may be registered on the cluster). */
export function mentionsUnknownAuditor(errors: readonly DefinitionError[]): boolean {
  return errors.some((e) => UNKNOWN_AUDITOR.includes(e.message));
}

/** Each error as one `file:line:col: path: message (expected …, found …)` line. */
export const errorLines = (errors: readonly DefinitionError[]): string[] => errors.map(formatError);

function parseFiles(files: readonly InputFile[]): { docs: SourceDocument[]; errors: DefinitionError[] } {
  const docs: SourceDocument[] = [];
  const errors: DefinitionError[] = [];
  for (const f of files) {
    const parsed = parseSource(f.text, f.file);
    // The first syntax error of a file; the ones after it are mostly its echoes.
    if (parsed.errors.length > 0) errors.push(parsed.errors[0]!);
    docs.push(...parsed.docs.filter((d) => d.value !== null && d.value !== undefined));
  }
  return { docs, errors };
}

/** The auditor ids the input registers itself (AuditorRegistration documents). */
function registeredIn(docs: readonly SourceDocument[]): string[] {
  return docs.flatMap((d) => {
    const v = d.value as Obj;
    const spec = isObj(v?.spec) ? v.spec : {};
    return v?.kind === 'AuditorRegistration' && typeof spec.auditorId === 'string' ? [spec.auditorId] : [];
  });
}

function plainErrors(src: SourceDocument, value: Obj): DefinitionError[] {
  const errors: DefinitionError[] = [];
  for (const key of ['apiVersion', 'kind'] as const) {
    if (typeof value[key] !== 'string' || value[key] === '') {
      errors.push(errorAt(src, [key], `${key} is required`, { expected: 'a string', found: value[key] }));
    }
  }
  if (value.kind === 'List') {
    errors.push(errorAt(src, ['kind'], 'a List is not applied', { expected: 'one object per document' }));
  }
  const meta = isObj(value.metadata) ? value.metadata : {};
  if (typeof meta.name !== 'string' || meta.name === '') {
    errors.push(
      errorAt(src, ['metadata', 'name'], 'metadata.name is required', {
        expected: 'a name',
        found: meta.name,
      }),
    );
  }
  return errors;
}

/** One document's errors and the objects it stands for. */
function documentObjects(
  src: SourceDocument,
  known: readonly string[],
): { errors: DefinitionError[]; bodies: Obj[] } {
  if (!isObj(src.value)) {
    return {
      errors: [errorAt(src, [], 'a document is a YAML mapping (one object)', { found: src.value })],
      bodies: [],
    };
  }
  const value = src.value;
  const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
  if (groupOf(apiVersion) !== GROUP) {
    const errors = plainErrors(src, value);
    return { errors, bodies: errors.length ? [] : [value] };
  }
  if ((DEFINITION_KINDS as readonly unknown[]).includes(value.kind)) {
    const meta = isObj(value.metadata) ? value.metadata : {};
    const loaded = loadDefinitionDocument(src, {
      file: src.file,
      knownAuditors: known,
      applyDefaults: false,
      ...(typeof meta.namespace === 'string' ? { namespace: meta.namespace } : {}),
    });
    return { errors: loaded.errors, bodies: loaded.errors.length ? [] : loaded.resources };
  }
  const errors = resourceDocumentErrors(src, value);
  return { errors, bodies: errors.length ? [] : [value] };
}

function toObject(body: Obj, at: string, index: number): ApplyObject {
  const meta = body.metadata as Obj;
  const o: ApplyObject = {
    apiVersion: String(body.apiVersion),
    kind: String(body.kind),
    name: String(meta.name),
    body,
    at,
    index,
  };
  if (typeof meta.namespace === 'string' && meta.namespace !== '') o.namespace = meta.namespace;
  return o;
}

function duplicateError(src: SourceDocument, o: ApplyObject, first: ApplyObject): DefinitionError {
  const where = o.namespace ? ` in namespace ${o.namespace}` : '';
  return errorAt(
    src,
    ['metadata', 'name'],
    `${objectRef(o.apiVersion, o.kind, o.name)}${where} is given twice`,
    {
      expected: `one document (the first is at ${first.at})`,
    },
  );
}

/**
 * Parses and validates every file; `objects` is complete only when `errors`
 * is empty. `knownAuditors` adds to the built-ins and to those the input
 * registers (the cluster's registrations, when the caller has read them).
 */
export function validateInputs(
  files: readonly InputFile[],
  knownAuditors: readonly string[] = [],
): Validated {
  const { docs, errors } = parseFiles(files);
  const known = [...new Set([...BUILTIN_AUDITOR_IDS, ...registeredIn(docs), ...knownAuditors])];
  const objects: ApplyObject[] = [];
  const seen = new Map<string, ApplyObject>();
  for (const src of docs) {
    const found = documentObjects(src, known);
    errors.push(...found.errors);
    const start = locate(src, []);
    for (const body of found.bodies) {
      const o = toObject(body, `${src.file}:${start.line}`, objects.length);
      const key = [o.apiVersion, o.kind, o.namespace ?? '', o.name].join('|');
      const first = seen.get(key);
      if (first) errors.push(duplicateError(src, o, first));
      else seen.set(key, o);
      objects.push(o);
    }
  }
  const order = new Map(files.map((f, i) => [f.file, i]));
  const rank = (e: DefinitionError): number => order.get(e.file) ?? files.length;
  errors.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
  return { objects, errors };
}
