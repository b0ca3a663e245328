import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT } from './errors.ts';
import { filesIn, readInputs } from './apply-input.ts';

function tree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'apply-input-'));
  for (const f of ['b.yaml', 'a.yml', 'c.json', 'notes.txt', 'sub/d.yaml']) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), `# ${f}\n`);
  }
  return dir;
}

function usage(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.usage);
    return (err as CliError).line();
  }
  throw new Error('no error');
}

describe('the files of platform apply -f', () => {
  it("takes a directory's manifests in name order, subdirectories only with -R", () => {
    const dir = tree();
    expect(filesIn(dir, false).map((f) => f.slice(dir.length + 1))).toEqual(['a.yml', 'b.yaml', 'c.json']);
    expect(filesIn(dir, true).map((f) => f.slice(dir.length + 1))).toEqual([
      'a.yml',
      'b.yaml',
      'c.json',
      'sub/d.yaml',
    ]);
  });

  it('reads files, directories and standard input in the order given', () => {
    const dir = tree();
    const inputs = readInputs([join(dir, 'notes.txt'), '-', join(dir, 'sub')], false, () => 'kind: X\n');
    expect(inputs.map((i) => i.file)).toEqual([
      join(dir, 'notes.txt'),
      '<stdin>',
      join(dir, 'sub', 'd.yaml'),
    ]);
    expect(inputs[1]!.text).toBe('kind: X\n');
  });

  it('refuses a missing path before reading any, an empty directory, and no input: usage errors', () => {
    const dir = tree();
    let read = false;
    const stdin = (): string => {
      read = true;
      return '';
    };
    expect(usage(() => readInputs(['-', join(dir, 'nope.yaml')], false, stdin))).toBe(
      `cannot read ${join(dir, 'nope.yaml')}: no such file or directory; check the path given to -f`,
    );
    expect(read).toBe(false);
    mkdirSync(join(dir, 'empty'));
    expect(usage(() => readInputs([join(dir, 'empty')], false, stdin))).toContain(
      'holds no .yaml, .yml or .json file',
    );
    expect(usage(() => readInputs([], false, stdin))).toContain('no input given');
    expect(usage(() => readInputs(['-', '-'], false, stdin))).toContain('given twice');
  });
});
