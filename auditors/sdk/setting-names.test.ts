import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  camelToSnake,
  envName,
  envPrefix,
  isSnakeKey,
  keyFromEnvName,
  parseSettingText,
  settingEnvText,
  settingValueMatches,
  snakeToCamel,
  SNAKE_KEY_RE,
} from './setting-names.ts';

const snakeKey = fc.stringMatching(SNAKE_KEY_RE).filter((k) => k.length <= 40);

describe('setting names', () => {
  it('maps the spec examples between the three spellings', () => {
    expect(snakeToCamel('ban_substrings')).toBe('banSubstrings');
    expect(camelToSnake('banSubstrings')).toBe('ban_substrings');
    expect(envName('injection', 'ban_substrings')).toBe('INJECTION_BAN_SUBSTRINGS');
    expect(envName('injection', 'banSubstrings')).toBe('INJECTION_BAN_SUBSTRINGS');
    expect(envName('toxicity', 'identity_attack_threshold')).toBe('TOXICITY_IDENTITY_ATTACK_THRESHOLD');
    expect(keyFromEnvName('injection', 'INJECTION_MAX_TOKEN_LIMIT')).toBe('max_token_limit');
  });

  it('turns a dashed auditor id into an environment prefix', () => {
    expect(envPrefix('model-context')).toBe('MODEL_CONTEXT');
    expect(envName('llm-judge', 'threshold')).toBe('LLM_JUDGE_THRESHOLD');
  });

  it('ignores variables of another auditor', () => {
    expect(keyFromEnvName('injection', 'TOXICITY_THRESHOLD')).toBeUndefined();
  });

  it('round-trips every snake_case key through camelCase and the environment name', () => {
    fc.assert(
      fc.property(snakeKey, (key) => {
        expect(isSnakeKey(key)).toBe(true);
        expect(camelToSnake(snakeToCamel(key))).toBe(key);
        expect(keyFromEnvName('model-context', envName('model-context', key))).toBe(key);
        expect(keyFromEnvName('model-context', envName('model-context', snakeToCamel(key)))).toBe(key);
      }),
    );
  });

  it('rejects keys whose segments would not survive the round trip', () => {
    expect(isSnakeKey('level_2')).toBe(false);
    expect(isSnakeKey('BanSubstrings')).toBe(false);
    expect(isSnakeKey('double__underscore')).toBe(false);
  });
});

describe('setting values from environment text', () => {
  it.each([
    ['number', '0.8', 0.8],
    ['number', ' 4096 ', 4096],
    ['boolean', 'true', true],
    ['boolean', 'NO', false],
    ['string', 'Content filtered for safety', 'Content filtered for safety'],
    ['string[]', 'ignore previous, you are now ,', ['ignore previous', 'you are now']],
    ['string[]', '["a,b","c"]', ['a,b', 'c']],
  ] as const)('parses %s %j', (type, raw, value) => {
    expect(parseSettingText(type, raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['number', 'high'],
    ['number', ''],
    ['boolean', 'maybe'],
    ['string[]', '[1,2]'],
  ] as const)('refuses %s %j with a reason', (type, raw) => {
    const parsed = parseSettingText(type, raw);
    expect(parsed.ok).toBe(false);
  });

  it('accepts null as the value of every type and checks the rest', () => {
    for (const t of ['number', 'boolean', 'string', 'string[]'] as const)
      expect(settingValueMatches(t, null)).toBe(true);
    expect(settingValueMatches('number', Number.NaN)).toBe(false);
    expect(settingValueMatches('string[]', ['a', 1])).toBe(false);
  });

  it('writes values as environment text that parses back to the same value', () => {
    expect(settingEnvText(['ignore previous', 'disregard all'])).toBe('ignore previous,disregard all');
    expect(settingEnvText(['a,b', 'c'])).toBe('["a,b","c"]');
    expect(settingEnvText(0.8)).toBe('0.8');
    expect(settingEnvText(false)).toBe('false');
    const item = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (list) => {
        expect(parseSettingText('string[]', settingEnvText(list))).toEqual({ ok: true, value: list });
      }),
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(parseSettingText('number', settingEnvText(n))).toEqual({ ok: true, value: n === 0 ? 0 : n });
      }),
    );
  });
});
