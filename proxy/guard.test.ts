// The built-in egress guard: model destinations and link-local addresses are
// refused by the address the name resolves to; allowed connections are pinned
// to the checked address.
import { describe, expect, it } from 'vitest';
import { guardDecision, modelBlockList, modelGuard, type Lookup } from './guard.ts';

const req = (host: string, port = 443) => ({ kind: 'tls' as const, destination: { host, port } });
const resolvesTo =
  (table: Record<string, string[]>): Lookup =>
  (host) =>
    table[host]
      ? Promise.resolve(table[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
      : Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));

describe('model guard', () => {
  const guard = modelGuard(
    { modelCidrs: ['10.96.0.0/16'], modelPorts: [11434] },
    resolvesTo({
      'api.github.com': ['140.82.112.6'],
      'llm.internal': ['10.96.7.7'],
      'sneaky.example': ['93.184.216.34', '10.96.0.9'],
      'metadata.example': ['169.254.169.254'],
      'v6.example': ['fe80::1'],
    }),
  );

  it('allows an ordinary destination and pins it to the address it checked', async () => {
    expect(await guard.decide(req('api.github.com'))).toEqual({ allow: true, address: '140.82.112.6' });
    expect(await guard.decide(req('127.0.0.1', 8099))).toEqual({ allow: true, address: '127.0.0.1' });
  });

  it('refuses a name that resolves into a model CIDR, even when only one of its addresses does', async () => {
    expect(await guard.decide(req('llm.internal'))).toMatchObject({ allow: false });
    expect(await guard.decide(req('sneaky.example'))).toMatchObject({
      allow: false,
      reason: expect.stringContaining('10.96.0.9'),
    });
  });

  it('refuses model ports and link-local (metadata) addresses, IPv4 and IPv6', async () => {
    expect(await guard.decide(req('api.github.com', 11434))).toMatchObject({ allow: false });
    expect(await guard.decide(req('metadata.example', 80))).toMatchObject({ allow: false });
    expect(await guard.decide(req('169.254.169.254', 80))).toMatchObject({ allow: false });
    expect(await guard.decide(req('v6.example'))).toMatchObject({ allow: false });
  });

  it('refuses a name that does not resolve, naming the error', async () => {
    expect(await guard.decide(req('nowhere.invalid'))).toEqual({
      allow: false,
      reason: 'cannot resolve nowhere.invalid: ENOTFOUND',
    });
    expect(guardDecision(443, [], modelBlockList([]), [])).toMatchObject({ allow: false });
  });

  it('rejects malformed CIDRs', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0/8', 'fe80::/10', '10.0.0.0'])
      expect(() => modelBlockList([bad]), bad).toThrow(/not an IPv4 CIDR/);
  });
});
