// Whole-file validation of a definition file: YAML syntax, the rule table,
// then every resource the file converts to against its kind's schema. Every
// error is returned at once; resources are returned only when there is none.
import { BUILTIN_AUDITOR_IDS } from '../../auditors/builtin.ts';
import { validateResource, type SchemaIssue } from '../validators.ts';
import { KNOWN_SECTIONS, fileFieldPath, toResources, type ConvertedResource } from './convert.ts';
import { DefinitionFileError, type DefinitionError } from './errors.ts';
import { runRules } from './rules.ts';
import { errorAt, parseSource, type Path, type SourceDocument } from './source.ts';

export interface LoadOptions {
  /** Shown in errors; defaults to `<definition>`. */
  file?: string;
  /** Namespace to place namespaced resources in. */
  namespace?: string;
  /** Auditor ids that exist (built-ins plus registered ones); defaults to the built-ins. */
  knownAuditors?: readonly string[];
  /** Fill schema defaults into the returned resources (default true); false leaves defaulting to the apiserver. */
  applyDefaults?: boolean;
}

export type Resource = ConvertedResource['resource'];
export type LoadResult = { ok: true; resources: Resource[] } | { ok: false; errors: DefinitionError[] };

function pointerToPath(pointer: string): Path {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const seg of path)
    v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

const FRIENDLY: Record<string, string> = {
  enum: 'not an allowed value',
  pattern: 'not in the expected form',
  type: 'wrong type',
  format: 'not in the expected format',
  minimum: 'out of range',
  maximum: 'out of range',
};

function schemaError(src: SourceDocument, converted: ConvertedResource, issue: SchemaIssue): DefinitionError {
  const crPath = pointerToPath(issue.pointer);
  const path = fileFieldPath(crPath, converted.renames);
  const unknownField = issue.keyword === 'additionalProperties';
  const missing = issue.keyword === 'required';
  const message = unknownField
    ? 'unknown field'
    : missing
      ? 'required field is missing'
      : (FRIENDLY[issue.keyword] ?? issue.message);
  const detail: { expected?: string; found?: unknown; atKey?: boolean } = { atKey: unknownField };
  if (issue.expected !== undefined) detail.expected = issue.expected;
  if (!unknownField) detail.found = valueAt(converted.resource, crPath);
  return errorAt(src, path, message, detail);
}

/** A document whose root or kind is wrong cannot be converted to resources: its rule errors are all there is. */
function unconvertible(errors: readonly DefinitionError[]): boolean {
  return errors.length > 0 && (errors[0]!.path === '' || errors.some((e) => e.path === 'kind'));
}

const withDefaults = (options: LoadOptions): boolean => options.applyDefaults !== false;

/**
 * One parsed document of a definition file: its rule and schema errors, and
 * the resources it converts to (complete only when there is no error).
 */
export function loadDefinitionDocument(
  src: SourceDocument,
  options: LoadOptions,
): { errors: DefinitionError[]; resources: Resource[] } {
  const known = new Set(options.knownAuditors ?? BUILTIN_AUDITOR_IDS);
  const errors = runRules(src, { knownAuditors: known });
  if (unconvertible(errors)) return { errors, resources: [] };
  const file = Object.fromEntries(
    Object.entries(src.value as Record<string, unknown>).filter(([k]) =>
      (KNOWN_SECTIONS as readonly string[]).includes(k),
    ),
  );
  const converted = toResources(file, options.namespace);
  const resources: Resource[] = [];
  const rulePaths = errors.map((e) => e.path);
  for (const [index, c] of converted.entries()) {
    const result = validateResource<Resource>(c.resource, { applyDefaults: true });
    if (result.valid) {
      resources.push(withDefaults(options) ? result.value : c.resource);
      continue;
    }
    // A workspace agent's fields are checked on the workspace already; its own resource only adds echoes.
    if (index > 0 && errors.length > 0) continue;
    for (const issue of result.issues) {
      const error = schemaError(src, c, issue);
      if (!echoesRule(issue, error.path, rulePaths)) errors.push(error);
    }
  }
  return { errors, resources };
}

/**
 * A plain custom resource as written (no definition-file conversion) against
 * its kind's schema: every issue located at its line in the document.
 */
export function resourceDocumentErrors(
  src: SourceDocument,
  resource: Record<string, unknown>,
): DefinitionError[] {
  const result = validateResource(resource);
  if (result.valid) return [];
  const converted = { resource, renames: [] } as unknown as ConvertedResource;
  return result.issues.map((issue) => schemaError(src, converted, issue));
}

/** Drops repeats (a workspace agent's error is seen on the workspace and on the agent resource). */
function dedupe(errors: DefinitionError[]): DefinitionError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.file}:${e.line}:${e.column}:${e.path}:${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A schema issue that only echoes a rule's more precise error (wildcard pattern, duplicate list entry). */
function echoesRule(issue: SchemaIssue, path: string, rulePaths: readonly string[]): boolean {
  if (issue.keyword === 'x-kubernetes-list-type') return rulePaths.some((p) => p.startsWith(path));
  return rulePaths.includes(path);
}

function byPosition(a: DefinitionError, b: DefinitionError): number {
  return a.line - b.line || a.column - b.column || a.path.localeCompare(b.path);
}

/**
 * Parses and validates a whole definition file (every YAML document in it)
 * and returns the resources to apply, or every error found.
 */
export function loadDefinitionFile(text: string, options: LoadOptions = {}): LoadResult {
  const file = options.file ?? '<definition>';
  const { docs, errors } = parseSource(text, file);
  if (docs.length === 0 && errors.length === 0) {
    errors.push({ file, line: 1, column: 1, path: '', message: 'the file holds no document' });
  }
  const resources: Resource[] = [];
  for (const src of docs) {
    const found = loadDefinitionDocument(src, options);
    errors.push(...found.errors);
    resources.push(...found.resources);
  }
  const all = dedupe(errors).sort(byPosition);
  return all.length > 0 ? { ok: false, errors: all } : { ok: true, resources };
}

/**
 * Validates the whole file first and only then hands each resource to
 * `write` (for example a server-side apply). Nothing is written when any
 * error is found; the thrown DefinitionFileError lists them all.
 */
export async function applyDefinitionFile(
  text: string,
  write: (resource: Resource) => Promise<void>,
  options: LoadOptions = {},
): Promise<Resource[]> {
  const loaded = loadDefinitionFile(text, options);
  if (!loaded.ok) throw new DefinitionFileError(loaded.errors);
  for (const resource of loaded.resources) await write(resource);
  return loaded.resources;
}

export { errorAt };
