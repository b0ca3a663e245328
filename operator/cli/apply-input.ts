// The files `platform apply -f` names: a file, a directory (its .yaml, .yml
// and .json files in name order; with -R its subdirectories too), or `-` for
// standard input. A path that cannot be read is a usage error (exit 2).
import { readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { usageError } from './errors.ts';
import type { InputFile } from './apply-validate.ts';

const EXTENSIONS = ['.yaml', '.yml', '.json'];

function statOf(path: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw usageError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file or directory' : (code ?? String(err))}`,
      'check the path given to -f',
    );
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw usageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** The manifest files under `dir`, sorted by name; subdirectories only when `recursive`. */
export function filesIn(dir: string, recursive: boolean): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return recursive ? filesIn(path, true) : [];
    return EXTENSIONS.some((x) => e.name.endsWith(x)) ? [path] : [];
  });
}

/** Every input, read whole; `stdin` is called at most once. */
export function readInputs(paths: readonly string[], recursive: boolean, stdin: () => string): InputFile[] {
  if (paths.length === 0) throw usageError('no input given', 'name a file, a directory or - with -f');
  if (paths.filter((p) => p === '-').length > 1) throw usageError('-f - (standard input) is given twice');
  // Every path is checked before any is read, so a typo in the last one is reported first.
  const stats = paths.map((p) => (p === '-' ? undefined : statOf(p)));
  return paths.flatMap((p, i): InputFile[] => {
    if (p === '-') return [{ file: '<stdin>', text: stdin() }];
    if (!stats[i]!.isDirectory()) return [{ file: p, text: readText(p) }];
    const files = filesIn(p, recursive);
    if (files.length === 0) {
      throw usageError(
        `${p} holds no .yaml, .yml or .json file`,
        recursive ? undefined : 'use -R for subdirectories',
      );
    }
    return files.map((f) => ({ file: f, text: readText(f) }));
  });
}
