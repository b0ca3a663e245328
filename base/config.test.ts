import { describe, expect, it } from 'vitest';
import { ConfigError, loadCheckedSettings, loadSettings, parseDurationMs } from './config.ts';

const specs = {
  port: { env: 'X_PORT', flag: 'port', type: 'port', default: '8080', description: 'listen port' },
  gateway: { env: 'X_GATEWAY_URL', type: 'url', required: true, description: 'gateway base URL' },
  mode: {
    env: 'X_MODE',
    type: 'string',
    choices: ['enforce', 'observe'],
    default: 'enforce',
    description: 'mode',
  },
  strict: { env: 'X_STRICT', type: 'boolean', default: 'false', description: 'strict' },
  timeout: { env: 'X_TIMEOUT', type: 'duration', default: '30s', description: 'timeout' },
  extras: { env: 'X_EXTRAS', type: 'list', description: 'extra names' },
} as const;

describe('loadSettings', () => {
  it('applies defaults and converts types', () => {
    const s = loadSettings(specs, { X_GATEWAY_URL: 'http://gw:8099/' });
    expect(s).toEqual({
      port: 8080,
      gateway: 'http://gw:8099',
      mode: 'enforce',
      strict: false,
      timeout: 30_000,
      extras: undefined,
    });
  });

  it('lets a flag win over the environment', () => {
    const s = loadSettings(specs, { X_GATEWAY_URL: 'http://gw', X_PORT: '1' }, { port: '2' });
    expect(s.port).toBe(2);
  });

  it('reports every bad value at once, naming where it came from', () => {
    let error: unknown;
    try {
      loadSettings(specs, { X_PORT: '70000', X_MODE: 'loud', X_STRICT: 'maybe', X_TIMEOUT: '5 minutes' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems).toContain('X_GATEWAY_URL is required: gateway base URL');
    expect(problems).toContain('X_PORT="70000": expected a port number 0-65535');
    expect(problems).toContain('X_MODE="loud": expected one of enforce, observe');
    expect(problems).toContain('X_STRICT="maybe": expected true or false');
    expect(problems).toContain('X_TIMEOUT="5 minutes": expected a duration such as 500ms, 30s, 15m or 1h');
  });

  it('rejects non-http URLs', () => {
    expect(() => loadSettings(specs, { X_GATEWAY_URL: 'ftp://x' })).toThrow(/expected an http\(s\) URL/);
  });

  it('splits lists and drops empty entries', () => {
    expect(loadSettings(specs, { X_GATEWAY_URL: 'http://g', X_EXTRAS: 'a, b,,c ' }).extras).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
  ])('%s is %d ms', (text, ms) => expect(parseDurationMs(text)).toBe(ms));

  it.each(['', '15', '1d', '-1m', '1.5h'])('rejects %j', (text) =>
    expect(parseDurationMs(text)).toBeUndefined(),
  );
});

describe('loadCheckedSettings', () => {
  const positive = (s: { port?: number }): string[] => (s.port === 0 ? ['X_PORT: expected 1-65535'] : []);

  it('reports a bad value and a failed check of another setting together', () => {
    let error: unknown;
    try {
      loadCheckedSettings(specs, { X_PORT: '0', X_MODE: 'loud' }, {}, positive);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'X_GATEWAY_URL is required: gateway base URL',
      'X_MODE="loud": expected one of enforce, observe',
      'X_PORT: expected 1-65535',
    ]);
  });

  it('returns the settings when every value and check passes', () => {
    const s = loadCheckedSettings(specs, { X_GATEWAY_URL: 'http://gw' }, { port: '9000' }, positive);
    expect(s).toMatchObject({ port: 9000, gateway: 'http://gw', mode: 'enforce' });
  });
});
