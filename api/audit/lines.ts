// Reading a JSON-lines file by byte range, a block at a time, with each line's
// offsets: the embedded audit log pages, verifies and reopens with it, so
// nothing ever holds the whole file.
import type { FileHandle } from 'node:fs/promises';
import type { AuditEntry } from './log.ts';

export interface Line {
  text: string;
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just after its newline. */
  end: number;
}

const NEWLINE = 0x0a;

/**
 * The complete lines between bytes `from` and `to`. Bytes after the last
 * newline are not a line: they come back through `tail` (a torn write).
 * Stops early if the file is shorter than `to`.
 */
export interface ReadLinesOptions {
  /** Receives the bytes after the last newline, if any (a torn write). */
  tail?: (start: number, bytes: Buffer) => void;
  blockBytes?: number;
}

export async function* readLines(
  file: FileHandle,
  from: number,
  to: number,
  { tail, blockBytes = 1 << 20 }: ReadLinesOptions = {},
): AsyncGenerator<Line> {
  let carry = Buffer.alloc(0);
  let carryStart = from;
  let position = from;
  while (position < to) {
    const block = Buffer.allocUnsafe(Math.min(blockBytes, to - position));
    const { bytesRead } = await file.read(block, 0, block.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = carry.length
      ? Buffer.concat([carry, block.subarray(0, bytesRead)])
      : block.subarray(0, bytesRead);
    let lineStart = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, lineStart)) {
      const start = carryStart + lineStart;
      yield { text: data.toString('utf8', lineStart, nl), start, end: carryStart + nl + 1 };
      lineStart = nl + 1;
    }
    carry = Buffer.from(data.subarray(lineStart));
    carryStart += lineStart;
  }
  if (carry.length > 0) tail?.(carryStart, carry);
}

/** One stored entry, or undefined when the line is not one (a damaged file). */
export function parseEntry(text: string): AuditEntry | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const entry = value as AuditEntry;
    return Number.isSafeInteger(entry.seq) && typeof entry.hash === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}
