import { describe, expect, it } from 'vitest';
import { createLogger } from '../../base/log.ts';
import { BundleSource, parseBundle } from './bundle-source.ts';
import type { EgressBundle } from '../../contract/egress.ts';

describe('parseBundle', () => {
  it('reads the wire format into rules with defaults', () => {
    const b = parseBundle({
      agent_id: 'ns.a',
      version: 'v1',
      cedar: 'permit(principal, action, resource);',
      rules: [
        {
          destination: '*.Example.com',
          injection_method: 'client_credentials',
          token_endpoint: 'https://as/token',
          ttl_seconds: 600,
          client_id: '',
        },
        { destination: 'api.example.com', credential_ref: 'gh', approval: 'owner', service: 'github' },
      ],
      mcp_servers: [{ name: 'fs', url: 'https://fs.example/mcp' }, { name: 3 }],
    });
    expect(b.rules).toEqual([
      {
        destination: '*.example.com',
        injectionMethod: 'client_credentials',
        approval: 'auto',
        service: 'example.com',
        source: 'agent',
        tokenEndpoint: 'https://as/token',
        ttlSeconds: 600,
      },
      {
        destination: 'api.example.com',
        injectionMethod: 'sidecar',
        approval: 'owner',
        service: 'github',
        source: 'agent',
        credentialRef: 'gh',
      },
    ]);
    expect(b.mcpServers).toEqual([{ name: 'fs', url: 'https://fs.example/mcp' }]);
  });
  it('refuses a bundle it cannot use as a whole', () => {
    expect(() => parseBundle({ rules: [] })).toThrow(/no cedar/);
    expect(() =>
      parseBundle({ cedar: '', rules: [{ destination: 'a', injection_method: 'magic' }] }),
    ).toThrow(/unknown injection_method/);
    expect(() => parseBundle({ cedar: '', rules: [{}] })).toThrow(/without destination/);
  });
});

describe('BundleSource', () => {
  const log = createLogger('test', { level: 'silent' });
  const bundle = (version: string): EgressBundle => ({
    agentId: 'a',
    version,
    rules: [],
    mcpServers: [],
    cedar: '',
  });
  it('is unknown until a read succeeds, then keeps the last one through failures', async () => {
    const answers: (EgressBundle | Error)[] = [new Error('down'), bundle('v1'), new Error('down again')];
    const changes: string[] = [];
    const source = new BundleSource({
      fetch: () => {
        const next = answers.shift();
        return next instanceof Error ? Promise.reject(next) : Promise.resolve(next as EgressBundle);
      },
      log,
      onChange: (b) => changes.push(b.version),
    });
    expect(await source.get()).toBeUndefined();
    expect((await source.get())?.version).toBe('v1');
    await source.refresh();
    expect(source.current?.version).toBe('v1');
    expect(changes).toEqual(['v1']);
  });
});
