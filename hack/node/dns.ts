// The DNS wire format the local node's cluster DNS needs, pure: read one query
// (RFC 1035 §4.1), name the Service a `<service>.<namespace>.svc.<domain>`
// name is for, and write the answer (A records, NODATA or NXDOMAIN). One
// question per message, no compression in queries, UDP sizes: what resolvers
// (glibc, c-ares) send.

export const TYPE_A = 1;
export const CLASS_IN = 1;
export const RCODE = { ok: 0, formErr: 1, serverFailure: 2, nameError: 3, notImplemented: 4 } as const;

export interface DnsQuestion {
  id: number;
  /** The query's RD bit and opcode, echoed in the answer. */
  flags: number;
  /** Lower case, without the trailing dot. */
  name: string;
  type: number;
  class: number;
  /** Where the question section ends in the query (the answer copies it). */
  end: number;
}

/** The one question of a DNS query, or an Error saying what is malformed. */
export function parseDnsQuery(msg: Buffer): DnsQuestion | Error {
  if (msg.length < 12) return new Error('shorter than a DNS header');
  const flags = msg.readUInt16BE(2);
  if (flags & 0x8000) return new Error('a response, not a query');
  if (msg.readUInt16BE(4) !== 1) return new Error('not exactly one question');
  const labels: string[] = [];
  let at = 12;
  for (;;) {
    const len = msg[at];
    if (len === undefined) return new Error('name runs past the message');
    at += 1;
    if (len === 0) break;
    if (len > 63) return new Error('compressed or oversized label in a question');
    if (at + len > msg.length) return new Error('label runs past the message');
    labels.push(
      msg
        .subarray(at, at + len)
        .toString('latin1')
        .toLowerCase(),
    );
    at += len;
  }
  if (at + 4 > msg.length) return new Error('question without type and class');
  return {
    id: msg.readUInt16BE(0),
    flags,
    name: labels.join('.'),
    type: msg.readUInt16BE(at),
    class: msg.readUInt16BE(at + 2),
    end: at + 4,
  };
}

export interface ServiceName {
  name: string;
  namespace: string;
}

/**
 * The Service a name is for (`<service>.<namespace>.svc.<domain>`); null for
 * other names inside the cluster domain (which do not exist: NXDOMAIN), and
 * undefined for names outside it.
 */
export function serviceOfName(name: string, domain = 'cluster.local'): ServiceName | null | undefined {
  const suffix = `.${domain}`;
  if (name !== domain && !name.endsWith(suffix)) return undefined;
  const labels = name.slice(0, -suffix.length).split('.');
  if (labels.length !== 3 || labels[2] !== 'svc' || !labels[0] || !labels[1]) return null;
  return { name: labels[0], namespace: labels[1] };
}

export interface DnsAnswer {
  rcode: number;
  /** IPv4 addresses answered as A records (only for an A question). */
  addresses?: readonly string[];
  ttlSeconds?: number;
}

function aRecord(ip: string, ttl: number): Buffer {
  const octets = ip.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255))
    throw new Error(`not an IPv4 address: ${ip}`);
  const rr = Buffer.alloc(16);
  rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  rr.writeUInt16BE(TYPE_A, 2);
  rr.writeUInt16BE(CLASS_IN, 4);
  rr.writeUInt32BE(ttl, 6);
  rr.writeUInt16BE(4, 10);
  octets.forEach((o, i) => rr.writeUInt8(o, 12 + i));
  return rr;
}

/** The response to `query` (whose question is `q`): authoritative, recursion available. */
export function dnsResponse(query: Buffer, q: DnsQuestion, answer: DnsAnswer): Buffer {
  const records = q.type === TYPE_A ? (answer.addresses ?? []) : [];
  const body = records.map((ip) => aRecord(ip, answer.ttlSeconds ?? 5));
  const header = Buffer.alloc(12);
  header.writeUInt16BE(q.id, 0);
  // QR, the query's opcode and RD, AA, RA, the rcode.
  header.writeUInt16BE(0x8000 | (q.flags & 0x7900) | 0x0400 | 0x0080 | (answer.rcode & 0xf), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(body.length, 6);
  return Buffer.concat([header, query.subarray(12, q.end), ...body]);
}

/** A bare error answer for a query whose question could not be read. */
export function dnsError(query: Buffer, rcode: number): Buffer | undefined {
  if (query.length < 12) return undefined;
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8000 | (query.readUInt16BE(2) & 0x7900) | 0x0080 | (rcode & 0xf), 2);
  return header;
}
