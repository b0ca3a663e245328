// Output formats shared by the user commands: `-o table` (default) for a
// person, `-o json` and `-o yaml` for scripts. A command hands over its rows
// and the columns a person reads; json and yaml print the rows whole.
import { stringify } from 'yaml';
import { usageError } from './errors.ts';

export const FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof FORMATS)[number];

export function parseFormat(value: string | undefined): OutputFormat {
  const v = value ?? 'table';
  if ((FORMATS as readonly string[]).includes(v)) return v as OutputFormat;
  throw usageError(`unknown output format '${v}'`, `use -o ${FORMATS.join('|')}`);
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
}

function isControl(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

function cell(v: unknown): string {
  if (v === undefined || v === null || v === '') return '-';
  if (Array.isArray(v)) return v.length === 0 ? '-' : v.map(cell).join(',');
  if (typeof v === 'object') return JSON.stringify(v);
  // Control characters from a server never reach the terminal as such.
  return [...String(v)].map((ch) => (isControl(ch) ? ' ' : ch)).join('');
}

/** A kubectl-style table: upper-case headers, columns padded by the widest cell, three spaces apart. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const grid = [
    columns.map((c) => c.header.toUpperCase()),
    ...rows.map((r) => columns.map((c) => cell(c.value(r)))),
  ];
  const widths = columns.map((_, i) => Math.max(...grid.map((line) => line[i]!.length)));
  return grid
    .map((line) =>
      line
        .map((c, i) => (i === line.length - 1 ? c : c.padEnd(widths[i]!)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

/** Renders `data` in the chosen format; `columns` and `rows` pick what the table shows. */
export function render<T>(
  format: OutputFormat,
  data: unknown,
  view: { rows: readonly T[]; columns: readonly Column<T>[] },
): string {
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  if (format === 'yaml') return stringify(data, { lineWidth: 0 });
  if (view.rows.length === 0) return 'No resources found.\n';
  return table(view.rows, view.columns);
}
