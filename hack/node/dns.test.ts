import { describe, expect, it } from 'vitest';
import { apiserverAddressArgs } from '../control-plane/control-plane.ts';
import { kubeletConfig } from './configs.ts';
import { RCODE, TYPE_A, dnsError, dnsResponse, parseDnsQuery, serviceOfName } from './dns.ts';
import { nodePaths } from './layout.ts';
import { parse } from 'yaml';

/** A query as glibc sends it: id, RD set, one question. */
function query(name: string, type = TYPE_A, id = 0x1234): Buffer {
  const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
  const header = Buffer.from([id >> 8, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, type, 0, 1])]);
}

describe('cluster DNS wire format', () => {
  it('reads the one question of a query, lower-cased', () => {
    const q = parseDnsQuery(query('Platform-Verifier.platform-system.svc.cluster.local'));
    expect(q).toMatchObject({
      id: 0x1234,
      name: 'platform-verifier.platform-system.svc.cluster.local',
      type: TYPE_A,
      class: 1,
    });
  });

  it('says what is wrong with a malformed message', () => {
    expect(parseDnsQuery(Buffer.alloc(5))).toEqual(new Error('shorter than a DNS header'));
    const truncated = query('a.b').subarray(0, 15);
    expect(String(parseDnsQuery(truncated))).toMatch(/past the message|without type/);
    const response = query('a.b');
    response[2] = 0x81;
    expect(String(parseDnsQuery(response))).toMatch(/a response/);
    const twoQuestions = query('a.b');
    twoQuestions[5] = 2;
    expect(String(parseDnsQuery(twoQuestions))).toMatch(/one question/);
  });

  it('names the Service of <service>.<namespace>.svc.<domain>, and only that', () => {
    expect(serviceOfName('platform-verifier.platform-system.svc.cluster.local')).toEqual({
      name: 'platform-verifier',
      namespace: 'platform-system',
    });
    // A search-path expansion inside the domain: no such name.
    expect(serviceOfName('platform-verifier.platform-system.svc.default.svc.cluster.local')).toBeNull();
    expect(serviceOfName('default.svc.cluster.local')).toBeNull();
    expect(serviceOfName('pod.ns.pod.cluster.local')).toBeNull();
    expect(serviceOfName('cluster.local')).toBeNull();
    expect(serviceOfName('example.com')).toBeUndefined();
    expect(serviceOfName('notcluster.local')).toBeUndefined();
  });

  it('answers an A question with the addresses, echoing id, RD and the question', () => {
    const msg = query('a.b.svc.cluster.local');
    const q = parseDnsQuery(msg);
    if (q instanceof Error) throw q;
    const out = dnsResponse(msg, q, { rcode: RCODE.ok, addresses: ['10.0.0.17'], ttlSeconds: 5 });
    expect(out.readUInt16BE(0)).toBe(0x1234);
    const flags = out.readUInt16BE(2);
    expect(flags & 0x8000).toBeTruthy(); // a response
    expect(flags & 0x0100).toBeTruthy(); // RD echoed
    expect(flags & 0x000f).toBe(RCODE.ok);
    expect(out.readUInt16BE(6)).toBe(1);
    expect(out.subarray(12, q.end)).toEqual(msg.subarray(12, q.end));
    const rr = out.subarray(q.end);
    expect(rr.readUInt16BE(0)).toBe(0xc00c);
    expect(rr.readUInt32BE(6)).toBe(5);
    expect([...rr.subarray(12, 16)]).toEqual([10, 0, 0, 17]);
  });

  it('answers other types of a known name with no records (NODATA), and unknown names with NXDOMAIN', () => {
    const msg = query('a.b.svc.cluster.local', 28);
    const q = parseDnsQuery(msg);
    if (q instanceof Error) throw q;
    const nodata = dnsResponse(msg, q, { rcode: RCODE.ok, addresses: ['10.0.0.17'] });
    expect(nodata.readUInt16BE(6)).toBe(0);
    expect(nodata.length).toBe(q.end);
    const nx = dnsResponse(msg, q, { rcode: RCODE.nameError });
    expect(nx.readUInt16BE(2) & 0xf).toBe(RCODE.nameError);
  });

  it('refuses to write an address that is not IPv4', () => {
    const msg = query('a.b.svc.cluster.local');
    const q = parseDnsQuery(msg);
    if (q instanceof Error) throw q;
    expect(() => dnsResponse(msg, q, { rcode: 0, addresses: ['fd00::1'] })).toThrow(/not an IPv4/);
  });

  it('answers an unreadable question with FORMERR, and nothing to a message without a header', () => {
    const out = dnsError(Buffer.from([0xab, 0xcd, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 70]), RCODE.formErr);
    expect(out?.readUInt16BE(0)).toBe(0xabcd);
    expect((out?.readUInt16BE(2) ?? 0) & 0xf).toBe(RCODE.formErr);
    expect(dnsError(Buffer.alloc(3), RCODE.formErr)).toBeUndefined();
  });
});

describe('in-cluster clients of the local node', () => {
  it('names the node IP as the pods nameserver only when asked', () => {
    const files = { caCert: 'ca', cert: 'c', key: 'k' };
    expect(parse(kubeletConfig(nodePaths(), files)).clusterDNS).toBeUndefined();
    expect(parse(kubeletConfig(nodePaths(), files, ['10.88.0.1'])).clusterDNS).toEqual(['10.88.0.1']);
  });

  it('keeps the apiserver on loopback unless pods reach it through the kubernetes Service', () => {
    expect(apiserverAddressArgs(false)).toContain('--bind-address=127.0.0.1');
    expect(apiserverAddressArgs(false)).toContain('--endpoint-reconciler-type=none');
    expect(apiserverAddressArgs(true)).toEqual([
      '--bind-address=0.0.0.0',
      '--advertise-address=10.88.0.1',
      '--endpoint-reconciler-type=lease',
    ]);
  });
});
