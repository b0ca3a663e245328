import { describe, expect, it } from 'vitest';
import { ConfigError } from '../base/config.ts';
import { loadProxySettings } from './config.ts';

describe('loadProxySettings', () => {
  it('has defaults that suit a pod', () => {
    const s = loadProxySettings({});
    expect(s).toMatchObject({
      port: 8088,
      host: '::',
      tlsPort: 443,
      httpPort: 80,
      connectTimeout: 10_000,
      idleTimeout: 300_000,
      headTimeout: 10_000,
      drainTimeout: 5_000,
      maxConnections: 1024,
      maxHeadBytes: 32_768,
    });
  });

  it('reads the webhook-set environment and the --set port', () => {
    const s = loadProxySettings(
      { PORT: '9000', PLATFORM_AGENT_ID: 'a1', PLATFORM_VERIFIER_URL: 'http://v:8000/' },
      { port: '9001' },
    );
    expect(s).toMatchObject({ port: 9001, agentId: 'a1', verifierUrl: 'http://v:8000' });
  });

  it('reports every bad value at once: types and ranges', () => {
    let error: unknown;
    try {
      loadProxySettings({
        PORT: 'http',
        PLATFORM_PROXY_TLS_PORT: '0',
        PLATFORM_PROXY_CONNECT_TIMEOUT: 'soon',
        PLATFORM_PROXY_DRAIN_TIMEOUT: '1m',
        PLATFORM_PROXY_MAX_CONNECTIONS: '0',
        PLATFORM_PROXY_MAX_HEAD_BYTES: '10',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT="http": expected a port number 0-65535',
      'PLATFORM_PROXY_CONNECT_TIMEOUT="soon": expected a duration such as 500ms, 30s, 15m or 1h',
      'PLATFORM_PROXY_TLS_PORT="0": expected a port 1-65535',
      'PLATFORM_PROXY_DRAIN_TIMEOUT="1m": expected at most 9s',
      'PLATFORM_PROXY_MAX_CONNECTIONS="0": expected between 1 and 1000000',
      'PLATFORM_PROXY_MAX_HEAD_BYTES="10": expected between 1024 and 1048576',
    ]);
  });
});
