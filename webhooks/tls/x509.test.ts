import { describe, expect, it } from 'vitest';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { inspect, keyMatches, missingNames, parseSubjectAltName, signedBy } from './x509.ts';

const DAY = 86_400_000;
const t0 = new Date('2030-01-01T00:00:00Z');
const names = { dnsNames: ['platform-webhook.platform-system.svc'], ipAddresses: ['127.0.0.1', '::1'] };
const ca = issueCa(t0, 365);
const serving = issueServing(ca, names, t0, 30);

describe('reading certificates with node:crypto', () => {
  it('reads validity, CA flag, names and serial of an issued certificate', () => {
    const info = inspect(serving.certPem);
    expect(info).toMatchObject({
      commonName: 'platform-webhook.platform-system.svc',
      isCA: false,
      dnsNames: names.dnsNames,
      ipAddresses: ['127.0.0.1', '::1'],
    });
    expect(info.notBefore).toEqual(new Date(t0.getTime() - 5 * 60_000));
    expect(info.notAfter).toEqual(new Date(t0.getTime() + 30 * DAY));
    expect(info.serial).toMatch(/^01[0-9a-f]{30}$/);
    expect(inspect(ca.certPem)).toMatchObject({ isCA: true, commonName: 'platform-webhook-ca' });
  });

  it('throws on text that is not a certificate', () => {
    expect(() => inspect('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toThrow();
    expect(() => inspect('')).toThrow();
  });

  it('matches SANs, IPv6 in any spelling, and names what is missing', () => {
    const info = inspect(serving.certPem);
    expect(missingNames(info, { dnsNames: names.dnsNames, ipAddresses: ['0:0:0:0:0:0:0:1'] })).toEqual([]);
    expect(missingNames(info, { dnsNames: ['other.svc'], ipAddresses: ['10.0.0.1', '::2'] })).toEqual([
      'DNS:other.svc',
      'IP:10.0.0.1',
      'IP:::2',
    ]);
  });

  it('parses OpenSSL SAN text: quoted values, full IPv6, other kinds ignored', () => {
    expect(
      parseSubjectAltName(
        'DNS:a.svc, DNS:"x\\u002c y", IP Address:FE80:0:0:0:0:0:1:2, email:a@b.c, URI:https://x, IP Address:10.0.0.1',
      ),
    ).toEqual({ dnsNames: ['a.svc', 'x, y'], ipAddresses: ['fe80::1:2', '10.0.0.1'] });
    expect(parseSubjectAltName(undefined)).toEqual({ dnsNames: [], ipAddresses: [] });
  });

  it('checks that a certificate chains to its CA, not to another one of the same name', () => {
    expect(signedBy(serving.certPem, ca.certPem)).toBe(true);
    const sameNameOtherKey = issueCa(t0, 365);
    expect(signedBy(serving.certPem, sameNameOtherKey.certPem)).toBe(false);
    expect(signedBy(serving.certPem, issueCa(t0, 365, 'another-ca').certPem)).toBe(false);
    expect(signedBy(serving.certPem, 'not a certificate')).toBe(false);
  });

  it('checks that the key belongs to the certificate', () => {
    expect(keyMatches(serving)).toBe(true);
    expect(keyMatches({ certPem: serving.certPem, keyPem: ca.keyPem })).toBe(false);
    expect(keyMatches({ certPem: serving.certPem, keyPem: 'not a key' })).toBe(false);
  });
});
