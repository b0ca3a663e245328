import { describe, expect, it } from 'vitest';
import {
  isSecretKey,
  isSecretValue,
  redactSecrets,
  REDACTED,
  secretInConfiguration,
} from './secret-config.ts';

describe('secrets in configuration overrides', () => {
  it('names a secret by the last word(s) of its key, in any case style', () => {
    for (const key of [
      'password',
      'dbPassword',
      'client_secret',
      'access-token',
      'apiKey',
      'API_KEY',
      'private.key',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
    for (const key of [
      'max_tokens',
      'token_endpoint',
      'secretName',
      'keyId',
      'threshold',
      'region',
      'author',
    ]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });

  it('recognises secret-looking values', () => {
    for (const v of [
      'Bearer abcdefghijkl1234',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIE',
      'sk-proj0123456789abcdefXYZ',
      'ghp_0123456789abcdefghijABCDEFGHIJ',
      'AKIAABCDEFGHIJKLMNOP',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTYifQ.sig',
    ]) {
      expect(isSecretValue(v), v).toBe(true);
    }
    for (const v of ['https://api.example.com', 'bearer', 'gpt-4o', 'sk-short', 'repo:read']) {
      expect(isSecretValue(v), v).toBe(false);
    }
  });

  it('answers the path of the first secret, never its value', () => {
    expect(secretInConfiguration({ threshold: 0.7, region: 'eu' })).toBeUndefined();
    expect(secretInConfiguration({ auth: { apiKey: 'abc' } })).toBe('auth.apiKey');
    expect(secretInConfiguration({ headers: ['x', 'Bearer abcdefghijkl1234'] })).toBe('headers[1]');
    expect(secretInConfiguration({ note: 'ghp_0123456789abcdefghijABCDEFGHIJ' })).toBe('note');
    // An empty secret-named override carries nothing.
    expect(secretInConfiguration({ password: '', token: null })).toBeUndefined();
  });

  it('redacts what a configuration stored past the API holds', () => {
    expect(
      redactSecrets({ threshold: 0.7, db: { password: 'hunter2' }, list: ['ok', 'Bearer abcdefghijkl1234'] }),
    ).toEqual({ threshold: 0.7, db: { password: REDACTED }, list: ['ok', REDACTED] });
  });
});
