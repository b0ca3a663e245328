import { describe, expect, it } from 'vitest';
import {
  entryHeaders,
  normalizeEntries,
  paxRecord,
  tarChunks,
  ustarHeader,
  type ReadFile,
  type TarEntry,
} from './tar.ts';

interface Parsed {
  path: string;
  type: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
  linkname: string;
  content: string;
}

const text = (b: Uint8Array, from: number, length: number): string =>
  Buffer.from(b.subarray(from, from + length))
    .toString('utf8')
    .replace(/\0.*$/s, '');
const octal = (b: Uint8Array, from: number, length: number): number => parseInt(text(b, from, length), 8);

/** A minimal reader of what tarChunks writes: ustar headers plus PAX `path` / `linkpath`. */
function parseTar(archive: Uint8Array): Parsed[] {
  const out: Parsed[] = [];
  let pax: Record<string, string> = {};
  for (let off = 0; off + 512 <= archive.length;) {
    const h = archive.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const size = octal(h, 124, 12);
    const body = Buffer.from(archive.subarray(off + 512, off + 512 + size)).toString('utf8');
    off += 512 + Math.ceil(size / 512) * 512;
    const type = text(h, 156, 1);
    if (type === 'x') {
      pax = Object.fromEntries([...body.matchAll(/\d+ ([^=]+)=([^\n]*)\n/g)].map((m) => [m[1], m[2]]));
      continue;
    }
    const path = pax.path ?? text(h, 0, 100);
    const linkname = pax.linkpath ?? text(h, 157, 100);
    const [mode, uid, gid, mtime] = [octal(h, 100, 8), octal(h, 108, 8), octal(h, 116, 8), octal(h, 136, 12)];
    out.push({ path, type, mode, uid, gid, mtime, linkname, content: body });
    pax = {};
  }
  return out;
}

async function archive(entries: TarEntry[], mtime = 0, read?: ReadFile): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of tarChunks(entries, mtime, read)) chunks.push(c);
  return Buffer.concat(chunks);
}

const file = (path: string, content: string, mode?: number): TarEntry => {
  const bytes = new TextEncoder().encode(content);
  return {
    type: 'file',
    path,
    size: bytes.length,
    source: { bytes },
    ...(mode === undefined ? {} : { mode }),
  };
};

describe('ustar headers', () => {
  it('writes the fields at their POSIX offsets with a checksum over the block', () => {
    const h = ustarHeader({
      name: 'usr/bin/node',
      mode: 0o755,
      uid: 0,
      gid: 0,
      size: 1234,
      mtime: 0,
      typeflag: '0',
      linkname: '',
    });
    expect(h.length).toBe(512);
    expect(text(h, 0, 100)).toBe('usr/bin/node');
    expect(Buffer.from(h.subarray(100, 108)).toString('latin1')).toBe('0000755\0');
    expect(Buffer.from(h.subarray(124, 136)).toString('latin1')).toBe('00000002322\0');
    expect(Buffer.from(h.subarray(257, 265)).toString('latin1')).toBe('ustar\x0000');
    const unsummed = Buffer.from(h);
    unsummed.fill(0x20, 148, 156);
    const sum = unsummed.reduce((a, b) => a + b, 0);
    expect(Buffer.from(h.subarray(148, 156)).toString('latin1')).toBe(
      `${sum.toString(8).padStart(6, '0')}\0 `,
    );
  });

  it('refuses a number that does not fit its field', () => {
    const fields = { name: 'x', mode: 0o644, uid: 0, gid: 0, mtime: 0, typeflag: '0', linkname: '' };
    expect(() => ustarHeader({ ...fields, size: 8 * 1024 ** 3 })).toThrow(/does not fit/);
  });

  it('counts the length digits in a PAX record', () => {
    expect(paxRecord('path', 'a')).toBe('9 path=a\n');
    // 98 bytes of body: two digits would make 100, which needs three.
    expect(paxRecord('path', 'x'.repeat(91))).toBe(`101 path=${'x'.repeat(91)}\n`);
    expect(paxRecord('path', 'x'.repeat(90))).toBe(`99 path=${'x'.repeat(90)}\n`);
  });
});

describe('tar archives', () => {
  it('round-trips files, directories and symlinks with fixed owners and mtime', async () => {
    const parsed = parseTar(
      await archive(
        [
          file('/etc/passwd', 'root:x:0:0::/root:/bin/sh\n'),
          { type: 'symlink', path: 'bin/sh', target: 'dash' },
          file('bin/dash', '#!', 0o755),
          { type: 'dir', path: 'tmp', mode: 0o1777 },
          { type: 'dir', path: 'home/node', uid: 1000, gid: 1000 },
        ],
        1700000000,
      ),
    );
    expect(parsed.map((e) => [e.path, e.type, e.mode.toString(8), e.uid, e.linkname, e.content])).toEqual([
      ['bin/', '5', '755', 0, '', ''],
      ['bin/dash', '0', '755', 0, '', '#!'],
      ['bin/sh', '2', '777', 0, 'dash', ''],
      ['etc/', '5', '755', 0, '', ''],
      ['etc/passwd', '0', '644', 0, '', 'root:x:0:0::/root:/bin/sh\n'],
      ['home/', '5', '755', 0, '', ''],
      ['home/node/', '5', '755', 1000, '', ''],
      ['tmp/', '5', '1777', 0, '', ''],
    ]);
    expect(new Set(parsed.map((e) => e.mtime))).toEqual(new Set([1700000000]));
  });

  it('carries long paths and long link targets in PAX headers', async () => {
    const long = `app/node_modules/${'deep/'.repeat(30)}index.js`;
    const target = `../${'t'.repeat(150)}`;
    const headers = entryHeaders({ type: 'symlink', path: 'x', target }, 0);
    expect(headers).toHaveLength(4);
    expect(text(headers[0]!, 0, 100)).toBe('PaxHeader/x');
    const parsed = parseTar(await archive([file(long, 'ok'), { type: 'symlink', path: 'l', target }]));
    expect(parsed.find((e) => e.type === '0')).toMatchObject({ path: long, content: 'ok' });
    expect(parsed.find((e) => e.type === '2')).toMatchObject({ path: 'l', linkname: target });
  });

  it('gives the same bytes whatever order the entries come in', async () => {
    const entries = [
      file('a/b', '1'),
      file('a-b', '2'),
      file('a/c/d', '3'),
      { type: 'dir', path: 'z' } as TarEntry,
    ];
    const one = await archive(entries);
    const two = await archive([...entries].reverse());
    expect(Buffer.compare(one, two)).toBe(0);
    expect(one.length % 512).toBe(0);
    expect(parseTar(one).map((e) => e.path)).toEqual(['a/', 'a-b', 'a/b', 'a/c/', 'a/c/d', 'z/']);
  });

  it('reads host files through the injected reader and checks their size', async () => {
    const read: ReadFile = async function* (path) {
      yield new TextEncoder().encode(`<${path}>`);
    };
    const host = (size: number): TarEntry => ({ type: 'file', path: 'f', size, source: { hostPath: '/h' } });
    expect(parseTar(await archive([host(4)], 0, read))[0]?.content).toBe('</h>');
    await expect(archive([host(5)], 0, read)).rejects.toThrow(/changed size/);
  });

  it('refuses conflicting duplicates, escaping paths and files used as directories', () => {
    expect(normalizeEntries([file('a', '1'), file('/a', '1')])).toHaveLength(1);
    expect(() => normalizeEntries([file('a', '1'), file('a', '2')])).toThrow(/two different entries/);
    expect(() => normalizeEntries([file('../etc/x', '1')])).toThrow(/bad archive path/);
    expect(() => normalizeEntries([file('a', '1'), file('a/b', '2')])).toThrow(/not a directory/);
  });
});
