import { describe, expect, it } from 'vitest';
import { entriesKey } from './layer-store.ts';
import type { TarEntry } from './tar.ts';

const host = (version: string, size = 3): TarEntry => ({
  type: 'file',
  path: 'usr/local/bin/node',
  size,
  source: { hostPath: '/cache/node', version },
});
const inline = (text: string): TarEntry => ({
  type: 'file',
  path: 'etc/passwd',
  size: text.length,
  source: { bytes: new TextEncoder().encode(text) },
});

describe('layer cache keys', () => {
  it('stay the same for the same inputs in any order', () => {
    const a = [host('1:2'), inline('root'), { type: 'dir', path: 'tmp', mode: 0o1777 } as TarEntry];
    expect(entriesKey(a, 0)).toBe(entriesKey([...a].reverse(), 0));
  });

  it('change with a host file version or size, inline bytes, a mode or the archive mtime', () => {
    const base = entriesKey([host('1:2'), inline('root')], 0);
    expect(entriesKey([host('1:3'), inline('root')], 0)).not.toBe(base);
    expect(entriesKey([host('1:2', 4), inline('root')], 0)).not.toBe(base);
    expect(entriesKey([host('1:2'), inline('toor')], 0)).not.toBe(base);
    expect(entriesKey([{ ...host('1:2'), mode: 0o755 }, inline('root')], 0)).not.toBe(base);
    expect(entriesKey([host('1:2'), inline('root')], 1)).not.toBe(base);
  });
});
