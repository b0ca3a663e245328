import { describe, expect, it } from 'vitest';
import {
  checkRedirectOptions,
  modelEndpointOf,
  redirectRules,
  redirectRules6,
  redirectScript,
} from './redirect.ts';

const options = {
  gatewayPort: 8099,
  proxyPort: 8088,
  sidecarUid: 1337,
  modelCidrs: ['10.0.0.0/8'],
  modelPorts: [11434],
};

describe('redirect rules', () => {
  it('exempts the sidecar UID first and sends everything else to the proxy last', () => {
    const rules = redirectRules(options).map((r) => r.join(' '));
    expect(rules[0]).toBe('-t nat -A PLATFORM_OUTPUT -m owner --uid-owner 1337 -j RETURN');
    expect(rules).toContain('-t nat -A PLATFORM_OUTPUT -p tcp -d 10.0.0.0/8 -j REDIRECT --to-ports 8099');
    expect(rules).toContain('-t nat -A PLATFORM_OUTPUT -p tcp --dport 11434 -j REDIRECT --to-ports 8099');
    expect(rules.at(-1)).toBe('-t nat -A PLATFORM_OUTPUT -p tcp -j REDIRECT --to-ports 8088');
  });

  it('closes the IPv6 path too: model ports to the gateway, the rest to the proxy, loopback and DNS left alone', () => {
    const rules = redirectRules6(options).map((r) => r.join(' '));
    expect(rules).toEqual([
      '-t nat -A PLATFORM_OUTPUT -m owner --uid-owner 1337 -j RETURN',
      '-t nat -A PLATFORM_OUTPUT -d ::1/128 -j RETURN',
      '-t nat -A PLATFORM_OUTPUT -p tcp --dport 53 -j RETURN',
      '-t nat -A PLATFORM_OUTPUT -p tcp --dport 11434 -j REDIRECT --to-ports 8099',
      '-t nat -A PLATFORM_OUTPUT -p tcp -j REDIRECT --to-ports 8088',
    ]);
    expect(redirectScript(options)).toMatch(
      /if ip6tables -t nat -S OUTPUT >\/dev\/null 2>&1; then\n {2}ip6tables /,
    );
  });

  it('refuses values that are not CIDRs, ports or a non-root UID, so nothing odd reaches the shell', () => {
    expect(
      checkRedirectOptions({ ...options, modelCidrs: ['10.0.0.0/8; rm -rf /'], sidecarUid: 0 }),
    ).toHaveLength(2);
    expect(() => redirectScript({ ...options, modelPorts: [70000] })).toThrow(/70000 is not a port/);
  });

  it("derives the pod's model endpoint from a model URL that names an IP address", () => {
    expect(modelEndpointOf('http://10.88.0.1:11434/v1')).toEqual({ address: '10.88.0.1', port: 11434 });
    expect(modelEndpointOf('https://192.0.2.7/v1')).toEqual({ address: '192.0.2.7', port: 443 });
    expect(modelEndpointOf('http://[fd00::7]/v1')).toEqual({ address: 'fd00::7', port: 80 });
    expect(modelEndpointOf('https://api.openai.com/v1')).toBeUndefined();
    expect(modelEndpointOf('http://127.0.0.1:8080')).toBeUndefined();
    expect(modelEndpointOf('http://[::1]:8080')).toBeUndefined();
    expect(modelEndpointOf('not a url')).toBeUndefined();
  });

  it("sends the pod's own model to the gateway before any exclusion, over IPv4 and IPv6", () => {
    const o = {
      ...options,
      modelCidrs: [],
      excludeCidrs: ['10.88.0.0/16'],
      modelEndpoints: [
        { address: '10.88.0.1', port: 11434 },
        { address: 'fd00::7', port: 80 },
      ],
    };
    const rules = redirectRules(o).map((r) => r.join(' '));
    const own = rules.indexOf(
      '-t nat -A PLATFORM_OUTPUT -p tcp -d 10.88.0.1/32 --dport 11434 -j REDIRECT --to-ports 8099',
    );
    expect(own).toBeGreaterThan(2);
    expect(own).toBeLessThan(rules.indexOf('-t nat -A PLATFORM_OUTPUT -d 10.88.0.0/16 -j RETURN'));
    expect(rules.join('\n')).not.toContain('fd00::7');
    expect(redirectRules6(o).map((r) => r.join(' '))).toContain(
      '-t nat -A PLATFORM_OUTPUT -p tcp -d fd00::7/128 --dport 80 -j REDIRECT --to-ports 8099',
    );
    expect(checkRedirectOptions({ ...o, modelEndpoints: [{ address: 'x; reboot', port: 0 }] })).toEqual([
      '"x; reboot" is not an IP address',
      '0 is not a port',
    ]);
  });
});
