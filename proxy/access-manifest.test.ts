import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../base/log.ts';
import { effectiveManifest } from '../policy/access-manifest.ts';
import {
  ManifestPolicy,
  networkDecision,
  verifierManifestFetch,
  type ManifestFetch,
} from './access-manifest.ts';
import type { EgressPolicy, EgressRequest } from './policy.ts';

const request = (host: string): EgressRequest => ({ kind: 'connect', destination: { host, port: 443 } });

/** The inner policy: allows everything and remembers what it was asked. */
function recordingPolicy(): EgressPolicy & { asked: string[] } {
  const asked: string[] = [];
  return { asked, decide: (r) => (asked.push(r.destination.host), { allow: true, address: '192.0.2.1' }) };
}

describe('networkDecision', () => {
  const manifest = effectiveManifest(
    { network: { allowedHosts: ['*.example.com', 'api.github.com'], deniedHosts: ['admin.example.com'] } },
    { network: { deniedHosts: ['*.internal.example.com'] } },
  );

  it('allows a host every tier permits, and refuses the rest naming the domain', () => {
    expect(networkDecision(manifest, 'docs.example.com')).toEqual({ allow: true });
    expect(networkDecision(manifest, 'api.github.com')).toEqual({ allow: true });
    for (const host of [
      'admin.example.com',
      'db.internal.example.com',
      'example.com',
      'example.com.evil.net',
    ])
      expect(networkDecision(manifest, host)).toMatchObject({
        allow: false,
        reason: expect.stringContaining('network'),
      });
  });

  it('refuses everything while no manifest has been read', () => {
    expect(networkDecision(undefined, 'docs.example.com')).toMatchObject({ allow: false });
  });
});

describe('ManifestPolicy', () => {
  it('refuses outside the manifest without asking the inner policy, and passes the rest to it', async () => {
    const inner = recordingPolicy();
    const policy = new ManifestPolicy(inner, {
      fetch: () => Promise.resolve({ workspace: { network: { deniedHosts: ['evil.example'] } } }),
      log: createLogger('test', { level: 'silent' }),
    });
    expect(await policy.decide(request('evil.example'))).toMatchObject({ allow: false });
    expect(await policy.decide(request('good.example'))).toEqual({ allow: true, address: '192.0.2.1' });
    expect(inner.asked).toEqual(['good.example']);
  });

  it('fails closed until a read succeeds, keeps the last manifest when a read fails, and follows changes', async () => {
    const answers: (Awaited<ReturnType<ManifestFetch>> | Error)[] = [
      new Error('verifier down'),
      { organization: { network: { allowedHosts: ['a.example'] } } },
      new Error('verifier down'),
      { organization: { network: { allowedHosts: ['b.example'] } } },
    ];
    const refreshed: boolean[] = [];
    const policy = new ManifestPolicy(recordingPolicy(), {
      fetch: () => {
        const next = answers.shift();
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next ?? {});
      },
      log: createLogger('test', { level: 'silent' }),
      onRefresh: (ok) => refreshed.push(ok),
    });
    expect(await policy.decide(request('a.example'))).toMatchObject({ allow: false });
    expect(policy.loaded).toBe(false);
    expect((await policy.decide(request('a.example'))).allow).toBe(true);
    await policy.refresh();
    expect((await policy.decide(request('a.example'))).allow).toBe(true);
    await policy.refresh();
    expect((await policy.decide(request('a.example'))).allow).toBe(false);
    expect((await policy.decide(request('b.example'))).allow).toBe(true);
    expect(refreshed).toEqual([false, true, false, true]);
  });

  it('reads once for decisions that arrive together before the first read ends', async () => {
    let reads = 0;
    const policy = new ManifestPolicy(recordingPolicy(), {
      fetch: async () => {
        reads += 1;
        await new Promise((r) => setTimeout(r, 20));
        return {};
      },
      log: createLogger('test', { level: 'silent' }),
    });
    const decisions = await Promise.all([1, 2, 3].map(() => policy.decide(request('x.example'))));
    expect(decisions.every((d) => d.allow)).toBe(true);
    expect(reads).toBe(1);
  });
});

describe('verifierManifestFetch against a loopback Verifier', () => {
  let server: Server;
  let url = '';
  const seen: { path?: string; headers?: IncomingHttpHeaders } = {};
  let status = 200;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.path = req.url;
      seen.headers = req.headers;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          agent_id: 'team-a.bot',
          organization: { name: 'acme', access_manifest: { network: { deniedHosts: ['evil.example'] } } },
          workspace: { name: 'ws', access_manifest: null },
          effective: {},
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("asks for the agent's manifest with its key and returns the tiers as written", async () => {
    const fetch = verifierManifestFetch({ verifierUrl: `${url}/`, agentId: 'team-a.bot', apiKey: 'pk_test' });
    expect(await fetch()).toEqual({
      organization: { network: { deniedHosts: ['evil.example'] } },
      workspace: undefined,
    });
    expect(seen.path).toBe('/v1/agents/team-a.bot/access-manifest');
    expect(seen.headers?.authorization).toBe('Bearer pk_test');
  });

  it('throws on an answer other than 200, so the last manifest is kept', async () => {
    status = 403;
    const fetch = verifierManifestFetch({ verifierUrl: url, agentId: 'team-a.bot', apiKey: undefined });
    await expect(fetch()).rejects.toThrow(/403/);
  });
});
