// Reading JSON lines by byte range, a block at a time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines, type Line } from './lines.ts';

async function linesOf(content: string, blockBytes: number): Promise<{ lines: Line[]; torn?: string }> {
  const path = join(mkdtempSync(join(tmpdir(), 'lines-')), 'f.jsonl');
  writeFileSync(path, content);
  const file = await open(path, 'r');
  const lines: Line[] = [];
  let torn: string | undefined;
  const tail = (_start: number, bytes: Buffer): void => void (torn = bytes.toString());
  try {
    for await (const line of readLines(file, 0, Buffer.byteLength(content), { tail, blockBytes }))
      lines.push(line);
  } finally {
    await file.close();
  }
  return torn === undefined ? { lines } : { lines, torn };
}

describe('readLines', () => {
  it('gives each line with its byte offsets across block boundaries, and the torn tail apart', async () => {
    const { lines, torn } = await linesOf('{"a":1}\n{"é":2}\n{"c"', 3);
    expect(lines).toEqual([
      { text: '{"a":1}', start: 0, end: 8 },
      { text: '{"é":2}', start: 8, end: 17 },
    ]);
    expect(torn).toBe('{"c"');
  });

  it('reports no tail when the last line is complete', async () => {
    expect(await linesOf('x\ny\n', 1)).toEqual({
      lines: [
        { text: 'x', start: 0, end: 2 },
        { text: 'y', start: 2, end: 4 },
      ],
    });
  });
});
