import { describe, expect, it } from 'vitest';
import { ConfigError } from '../base/config.ts';
import { loadModelSettings } from './config.ts';

describe('loadModelSettings', () => {
  it('defaults to local-echo on port 11434 of every IPv4 address, 1 MiB bodies', () => {
    expect(loadModelSettings({})).toEqual({
      port: 11434,
      host: '0.0.0.0',
      modelIds: ['local-echo'],
      maxBodyBytes: 1_048_576,
    });
  });

  it('reads the environment, --set wins, duplicate ids collapse', () => {
    const s = loadModelSettings(
      { PORT: '9000', PLATFORM_MODEL_IDS: 'a, b,a', PLATFORM_MODEL_HOST: '::' },
      { port: '0' },
    );
    expect(s).toMatchObject({ port: 0, host: '::', modelIds: ['a', 'b'] });
  });

  it('reports every bad value at once', () => {
    let error: unknown;
    try {
      loadModelSettings({ PORT: 'x', PLATFORM_MODEL_IDS: ',', PLATFORM_MODEL_MAX_BODY_BYTES: '10' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT="x": expected a port number 0-65535',
      'PLATFORM_MODEL_IDS: name at least one model id',
      'PLATFORM_MODEL_MAX_BODY_BYTES=10: expected between 1024 and 67108864',
    ]);
  });

  it('refuses ids the gateway could not record', () => {
    expect(() => loadModelSettings({ PLATFORM_MODEL_IDS: 'my model' })).toThrow(
      '"my model" is not a printable id',
    );
  });
});
