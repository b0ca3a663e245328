import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../base/config.ts';
import { consoleBufferSettings } from './open-log.ts';

describe('consoleBufferSettings', () => {
  it('defaults to 1000 events per agent for 24 hours', () => {
    expect(consoleBufferSettings({})).toEqual({ perAgent: 1000, maxAgeMs: 24 * 3_600_000 });
  });

  it('reads both bounds', () => {
    const env = { PLATFORM_CONSOLE_BUFFER_PER_AGENT: '250', PLATFORM_CONSOLE_BUFFER_MAX_AGE: '30m' };
    expect(consoleBufferSettings(env)).toEqual({ perAgent: 250, maxAgeMs: 1_800_000 });
  });

  it('names every bad value at once', () => {
    const env = { PLATFORM_CONSOLE_BUFFER_PER_AGENT: '5', PLATFORM_CONSOLE_BUFFER_MAX_AGE: 'a day' };
    let error: unknown;
    try {
      consoleBufferSettings(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PLATFORM_CONSOLE_BUFFER_PER_AGENT: expected 10 to 1000000 events, got "5"',
      'PLATFORM_CONSOLE_BUFFER_MAX_AGE: expected a duration of at least 1m (e.g. 30m, 24h), got "a day"',
    ]);
  });

  it.each(['-1', '1e3', '2000000', '10.5'])('refuses %s events per agent', (text) => {
    expect(() => consoleBufferSettings({ PLATFORM_CONSOLE_BUFFER_PER_AGENT: text })).toThrow(ConfigError);
  });
});
