import { describe, expect, it } from 'vitest';
import { checkRedirectOptions, redirectRules, redirectRules6, redirectScript } from './redirect.ts';

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
});
