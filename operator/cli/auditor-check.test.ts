import { describe, expect, it } from 'vitest';
import type { Vocabulary } from '../../auditors/sdk/types.ts';
import { registryCheck } from './auditor-check.ts';
import { childEnv, lastLine } from './auditor-local.ts';

const served: Vocabulary = {
  auditor_id: 'kw',
  version: '1',
  phases: ['request'],
  vocabulary: [
    { name: 'kw_detected', type: 'boolean', description: '', value_schema: {} },
    { name: 'kw_score', type: 'score_normalized', description: '', value_schema: {} },
  ],
};

describe('the registration against the served vocabulary', () => {
  it('passes when every claim is registered with its type', () => {
    const item = {
      auditor_id: 'kw',
      claims: [{ name: 'kw_detected', type: 'boolean' }, { name: 'kw_score' }],
    };
    expect(registryCheck(item, served)).toEqual({ id: 'registry.claims', ok: true, problems: [] });
  });

  it('names claims registered but not served, typed differently, or served but not registered', () => {
    const item = {
      auditor_id: 'kw',
      claims: [
        { name: 'kw_detected', type: 'score_normalized' },
        { name: 'kw_gone', type: 'boolean' },
      ],
    };
    expect(registryCheck(item, served).problems).toEqual([
      'claim kw_detected is served as boolean, registered as score_normalized',
      'registered claim kw_gone is not served',
      'served but not registered: kw_score (register again to sync)',
    ]);
    expect(registryCheck(item, undefined).ok).toBe(false);
  });
});

describe('a local run', () => {
  it('listens on loopback, attests with MOCK and registers only with a gateway given', () => {
    expect(childEnv({ HOME: '/h' }, { port: 9000 })).toEqual({
      HOME: '/h',
      PORT: '9000',
      PLATFORM_AUDITOR_HOST: '127.0.0.1',
      TEE_PROVIDER: 'MOCK',
      PLATFORM_GATEWAY_URL: 'http://127.0.0.1:8099',
      PLATFORM_AUDITOR_REGISTER: 'false',
    });
    expect(childEnv({ TEE_PROVIDER: 'COCO' }, { port: 1, gatewayUrl: 'http://gw:8099' })).toMatchObject({
      TEE_PROVIDER: 'COCO',
      PLATFORM_GATEWAY_URL: 'http://gw:8099',
      PLATFORM_AUDITOR_REGISTER: 'true',
    });
  });

  it('reports the last line a failed child wrote', () => {
    expect(lastLine('a\nb: bad setting\n\n')).toBe('b: bad setting');
    expect(lastLine('')).toBe('');
  });
});
