import { describe, expect, it } from 'vitest';
import { loadMcpGatewaySettings } from './config.ts';

describe('the MCP gateway settings', () => {
  it('default to the spec: enabled, port 8100, discovery every 30 s, mTLS on, no issuer', () => {
    expect(loadMcpGatewaySettings({})).toMatchObject({
      enabled: true,
      port: 8100,
      discoveryInterval: 30_000,
      mtlsEnabled: true,
      oauthIssuer: undefined,
    });
  });

  it('report every bad value at once, and an issuer without the resource its tokens are for', () => {
    expect(() =>
      loadMcpGatewaySettings({
        MCP_GATEWAY_PORT: 'x',
        MCP_GATEWAY_DISCOVERY_INTERVAL: '10ms',
        MCP_GATEWAY_OAUTH_ISSUER: 'https://auth.example.com',
      }),
    ).toThrow(
      /MCP_GATEWAY_PORT[\s\S]*MCP_GATEWAY_DISCOVERY_INTERVAL="10ms": expected between 1s and 1h[\s\S]*without MCP_GATEWAY_RESOURCE_URL/,
    );
  });
});
