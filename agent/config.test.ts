import { describe, expect, it } from 'vitest';
import { ConfigError } from '../base/config.ts';
import { DEFAULT_PROMPT, loadAgentSettings, resolveModelBase } from './config.ts';

describe('resolveModelBase', () => {
  it('takes OPENAI_BASE_URL as given: it includes the version path', () => {
    expect(resolveModelBase('http://10.88.0.1:11434/v1/', 'http://ignored')).toBe(
      'http://10.88.0.1:11434/v1',
    );
    expect(resolveModelBase('https://example.test/openai/v2')).toBe('https://example.test/openai/v2');
  });

  it('appends /v1 to PLATFORM_MODEL_URL unless its path already ends in /v1', () => {
    expect(resolveModelBase(undefined, 'http://model:11434')).toBe('http://model:11434/v1');
    expect(resolveModelBase(undefined, 'http://model:11434/')).toBe('http://model:11434/v1');
    expect(resolveModelBase(undefined, 'https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(resolveModelBase(undefined, 'http://gw/llm')).toBe('http://gw/llm/v1');
    expect(resolveModelBase(undefined, 'http://gw/v10')).toBe('http://gw/v10/v1');
  });

  it('is undefined without either', () => {
    expect(resolveModelBase()).toBeUndefined();
  });
});

describe('loadAgentSettings', () => {
  it('has defaults that suit a pod', () => {
    expect(loadAgentSettings({ PLATFORM_MODEL_URL: 'http://10.88.0.1:11434' })).toMatchObject({
      port: 8080,
      host: '::',
      modelBase: 'http://10.88.0.1:11434/v1',
      modelId: 'local-echo',
      prompt: DEFAULT_PROMPT,
      callTimeout: 60_000,
      startupAttempts: 6,
      retryDelay: 500,
      maxBodyBytes: 65_536,
    });
  });

  it('reads the OpenAI variables and --set flags', () => {
    const s = loadAgentSettings(
      { OPENAI_BASE_URL: 'http://m/v1', OPENAI_API_KEY: 'sk-x', PLATFORM_MODEL_ID: 'gpt-4o-mini' },
      { port: '0', 'tool-url': 'http://tool.test/a' },
    );
    expect(s).toMatchObject({
      port: 0,
      apiKey: 'sk-x',
      modelId: 'gpt-4o-mini',
      toolUrl: 'http://tool.test/a',
    });
  });

  it('reports every problem at once: no model URL, a bad id, values out of range', () => {
    let error: unknown;
    try {
      loadAgentSettings({
        PLATFORM_MODEL_ID: 'my model',
        AGENT_STARTUP_ATTEMPTS: '0',
        AGENT_MAX_BODY_BYTES: '10',
        AGENT_CALL_TIMEOUT: 'soon',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'AGENT_CALL_TIMEOUT="soon": expected a duration such as 500ms, 30s, 15m or 1h',
      'OPENAI_BASE_URL or PLATFORM_MODEL_URL is required: where the model API is',
      'PLATFORM_MODEL_ID="my model": expected 1-253 printable characters',
      'AGENT_STARTUP_ATTEMPTS=0: expected between 1 and 20',
      'AGENT_MAX_BODY_BYTES=10: expected between 1024 and 16777216',
    ]);
  });

  it('reports a malformed model URL once, not also as missing', () => {
    expect(() => loadAgentSettings({ OPENAI_BASE_URL: 'ftp://m' })).toThrow(
      /^invalid configuration:\n {2}- OPENAI_BASE_URL="ftp:\/\/m": expected an http\(s\) URL$/,
    );
  });
});
