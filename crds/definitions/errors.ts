// One error in a definition file: where it is (file, line, column, field
// path) and what was expected versus found. Validation collects all of them.

export interface DefinitionError {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** Field path in the file, `spec.agents[1].name`; empty for the whole document. */
  path: string;
  message: string;
  expected?: string;
  found?: string;
}

export function formatError(e: DefinitionError): string {
  const where = `${e.file}:${e.line}:${e.column}`;
  const field = e.path ? `${e.path}: ` : '';
  const detail = [
    e.expected !== undefined ? `expected ${e.expected}` : '',
    e.found !== undefined ? `found ${e.found}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${where}: ${field}${e.message}${detail ? ` (${detail})` : ''}`;
}

export class DefinitionFileError extends Error {
  constructor(readonly errors: readonly DefinitionError[]) {
    super(`${errors.length} error(s) in definition file:\n${errors.map(formatError).join('\n')}`);
    this.name = 'DefinitionFileError';
  }
}

/** `['spec', 'agents', 1, 'name']` → `spec.agents[1].name`. */
export function pathToString(path: readonly (string | number)[]): string {
  return path
    .map((p, i) =>
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(p)
          ? `${i ? '.' : ''}${p}`
          : `[${JSON.stringify(p)}]`,
    )
    .join('');
}

/** A short rendering of a found value for messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const s = JSON.stringify(value);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
