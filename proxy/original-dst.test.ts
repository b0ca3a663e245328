import { describe, expect, it } from 'vitest';
import { parseSockaddr } from './original-dst.ts';

describe('parseSockaddr', () => {
  it('reads an IPv4 sockaddr_in', () => {
    const b = Buffer.alloc(16);
    b.writeUInt16LE(2, 0);
    b.writeUInt16BE(8443, 2);
    Buffer.from([10, 1, 2, 3]).copy(b, 4);
    expect(parseSockaddr(b)).toEqual({ address: '10.1.2.3', port: 8443 });
  });
  it('reads an IPv6 sockaddr_in6', () => {
    const b = Buffer.alloc(28);
    b.writeUInt16LE(10, 0);
    b.writeUInt16BE(443, 2);
    b.writeUInt16BE(0xfd00, 8);
    b.writeUInt16BE(1, 22);
    expect(parseSockaddr(b)).toEqual({ address: 'fd00::1', port: 443 });
  });
  it('refuses an unknown family', () => {
    expect(parseSockaddr(Buffer.alloc(16))).toBeUndefined();
  });
});
