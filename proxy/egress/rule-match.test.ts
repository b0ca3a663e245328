import { describe, expect, it } from 'vitest';
import type { EgressRule } from '../../contract/egress.ts';
import { matchRule, normalizeHost } from './rule-match.ts';

const rule = (destination: string): EgressRule => ({
  destination,
  injectionMethod: 'sidecar',
  credentialRef: 'c',
  approval: 'auto',
  service: destination.replace(/^\*\./, ''),
  source: 'agent',
});

const RULES = [
  rule('api.example.com'),
  rule('*.example.com'),
  rule('*.eu.example.com'),
  rule('10.0.0.7'),
  rule('[2001:db8::1]'),
  rule('Mixed.Case.NET.'),
];
const dest = (host: string): string | undefined => matchRule(RULES, host)?.destination;

describe('matchRule', () => {
  it('prefers an exact destination over a wildcard that also covers it', () => {
    expect(dest('api.example.com')).toBe('api.example.com');
    expect(matchRule([rule('*.example.com'), rule('api.example.com')], 'api.example.com')?.destination).toBe(
      'api.example.com',
    );
  });

  it('matches hosts case-insensitively and ignores a trailing dot on either side', () => {
    expect(dest('API.Example.COM.')).toBe('api.example.com');
    expect(dest('mixed.case.net')).toBe('Mixed.Case.NET.');
  });

  it('lets a wildcard cover subdomains at any depth', () => {
    expect(dest('a.example.com')).toBe('*.example.com');
    expect(dest('a.b.example.com')).toBe('*.example.com');
  });

  it('picks the longest wildcard among those that cover the host', () => {
    expect(dest('x.eu.example.com')).toBe('*.eu.example.com');
    expect(dest('eu.example.com')).toBe('*.example.com');
  });

  it.each([
    ['the wildcard’s own domain', 'example.com'],
    ['a host that only ends with the same letters', 'badexample.com'],
    ['the domain as a prefix of another', 'example.com.evil.net'],
    ['the domain inside another label', 'example.com-evil.net'],
    ['an empty label before the suffix', '.example.com'],
    ['an empty label in the middle', 'a..example.com'],
    ['an empty host', ''],
  ])('never matches %s (%s)', (_why, host) => {
    expect(dest(host)).toBeUndefined();
  });

  it('matches IP literals only exactly, never by a wildcard', () => {
    expect(dest('10.0.0.7')).toBe('10.0.0.7');
    expect(dest('10.0.0.8')).toBeUndefined();
    expect(matchRule([rule('*.0.0.7')], '10.0.0.7')).toBeUndefined();
    expect(dest('2001:db8::1')).toBe('[2001:db8::1]');
    expect(dest('[2001:DB8::1]')).toBe('[2001:db8::1]');
  });

  it('matches nothing without rules', () => {
    expect(matchRule([], 'api.example.com')).toBeUndefined();
  });
});

describe('normalizeHost', () => {
  it('lower-cases, drops a trailing dot and IPv6 brackets', () => {
    expect(normalizeHost('A.B.')).toBe('a.b');
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('a..b')).toBeUndefined();
  });
});
