// The destination a transparently redirected connection was really dialled
// to. iptables REDIRECT rewrites it to the proxy's port; the kernel keeps the
// original in conntrack and hands it back through getsockopt(SO_ORIGINAL_DST),
// which Node does not expose, so it is called through koffi's FFI (prebuilt,
// no compiler needed). Anything that fails (another OS, no libc, a socket
// that was not redirected) answers undefined and the caller falls back to
// the configured default port (decision 53's behaviour).
import { isIPv4 } from 'node:net';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';

const SOL_IP = 0;
const SOL_IPV6 = 41;
const SO_ORIGINAL_DST = 80; // IP6T_SO_ORIGINAL_DST has the same value

// koffi's binding of getsockopt(2): five arguments, as libc declares it.
// eslint-disable-next-line max-params
type GetSockOpt = (fd: number, level: number, name: number, out: Buffer, len: number[]) => number;

let getsockopt: GetSockOpt | null | undefined;

function load(): GetSockOpt | null {
  if (getsockopt !== undefined) return getsockopt;
  getsockopt = null;
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as {
      load(name: string): { func(signature: string): GetSockOpt };
    };
    getsockopt = koffi
      .load('libc.so.6')
      .func(
        'int getsockopt(int fd, int level, int optname, _Out_ uint8_t *optval, _Inout_ uint32_t *optlen)',
      );
  } catch {
    getsockopt = null;
  }
  return getsockopt;
}

/** Parses a `sockaddr_in` / `sockaddr_in6` as the kernel returns it. */
export function parseSockaddr(buf: Buffer): { address: string; port: number } | undefined {
  const family = buf.readUInt16LE(0);
  const port = buf.readUInt16BE(2);
  if (family === 2) return { address: [...buf.subarray(4, 8)].join('.'), port };
  if (family === 10 && buf.length >= 24) {
    const groups: string[] = [];
    for (let i = 8; i < 24; i += 2) groups.push(buf.readUInt16BE(i).toString(16));
    return { address: groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::'), port };
  }
  return undefined;
}

/**
 * The original destination of a redirected TCP connection, or undefined when
 * it cannot be read or the connection was not redirected (then it names the
 * proxy itself).
 */
export function originalDestination(socket: Socket): { address: string; port: number } | undefined {
  const local = (socket.localAddress ?? '').replace(/^::ffff:/, '');
  const dst = readOriginal(socket, isIPv4(local));
  // Not redirected: the kernel answers the socket's own local address.
  if (!dst || (dst.address === local && dst.port === socket.localPort)) return undefined;
  return dst;
}

function readOriginal(socket: Socket, v4: boolean): { address: string; port: number } | undefined {
  const fn = load();
  const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (!fn || typeof fd !== 'number' || fd < 0) return undefined;
  const out = Buffer.alloc(28);
  try {
    return fn(fd, v4 ? SOL_IP : SOL_IPV6, SO_ORIGINAL_DST, out, [out.length]) === 0
      ? parseSockaddr(out)
      : undefined;
  } catch {
    return undefined;
  }
}
