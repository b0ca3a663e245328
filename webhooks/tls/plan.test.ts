import { describe, expect, it } from 'vitest';
import { issueCa, issueServing } from '../../base/tls/certs.ts';
import { caBundlePem, certCondition, planRenewal } from './plan.ts';

const DAY = 86_400_000;
const names = { dnsNames: ['platform-webhook.platform-system.svc'], ipAddresses: ['127.0.0.1'] };
const t0 = new Date('2030-01-01T00:00:00Z');
const ca = issueCa(t0, 365);
const serving = issueServing(ca, names, t0, 365);
const at = (days: number): Date => new Date(t0.getTime() + days * DAY);

describe('certificate renewal plan', () => {
  it('issues everything when the Secret is empty', () => {
    expect(planRenewal({}, names, t0, 30 * DAY)).toMatchObject({ renewCa: true, renewServing: true });
  });

  it('keeps valid certificates until 30 days before expiry, then renews (CA first)', () => {
    expect(planRenewal({ ca, serving }, names, at(334), 30 * DAY).reasons).toEqual([]);
    expect(planRenewal({ ca, serving }, names, at(336), 30 * DAY)).toMatchObject({
      renewCa: true,
      renewServing: true,
      reasons: ['the CA expires on 2031-01-01'],
    });
  });

  it('reissues only the serving certificate when a name is missing', () => {
    const plan = planRenewal(
      { ca, serving },
      { ...names, dnsNames: [...names.dnsNames, 'extra.example'] },
      t0,
      30 * DAY,
    );
    expect(plan).toMatchObject({ renewCa: false, renewServing: true });
    expect(plan.reasons[0]).toMatch(/missing DNS:extra\.example\)$/);
  });

  it('serves old and new CA in the bundle until the old one expires', () => {
    const next = issueCa(at(336), 365);
    expect(
      caBundlePem({ ca: next, previousCaPem: ca.certPem }, at(340)).match(/BEGIN CERTIFICATE/g),
    ).toHaveLength(2);
    expect(
      caBundlePem({ ca: next, previousCaPem: ca.certPem }, at(366)).match(/BEGIN CERTIFICATE/g),
    ).toHaveLength(1);
  });

  it('reports an expired serving certificate as a condition', () => {
    expect(certCondition({ ca, serving }, names, at(400))).toMatchObject({
      status: 'False',
      reason: 'Expired',
    });
  });
});
