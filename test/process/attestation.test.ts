// The attestation agents: MOCK signs locally (hardware_attested false), keys
// rotate with new ids, COCO binds the Evidence hash into runtime_data of a
// loopback server answering as the attestation-agent REST API does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAttestationAgent, runtimeDataOf } from '../../attestation/agent.ts';
import { CocoClient } from '../../attestation/coco.ts';
import { AttestationError } from '../../attestation/errors.ts';
import { sampleQuoteVerifier } from '../../attestation/verify-tee.ts';
import { assess } from '../../evidence/result.ts';
import { signEvidence, signingPayload, verifyEvidenceSignature } from '../../evidence/sign.ts';
import { sampleEvidence } from './fixtures/evidence.ts';

let aa: Server;
let aaUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  // The attestation-agent's sample attester answers {svn, report_data} with runtime_data in report_data.
  aa = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url.pathname);
    if (url.pathname === '/aa/evidence') {
      const rd = url.searchParams.get('runtime_data') ?? '';
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(JSON.stringify({ svn: '1', report_data: Buffer.from(rd).toString('base64') }));
    } else if (url.pathname === '/aa/token') {
      res.writeHead(200).end('{"token":"t","tee_keypair":"k"}');
    } else res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => aa.listen(0, '127.0.0.1', () => r()));
  aaUrl = `http://127.0.0.1:${(aa.address() as AddressInfo).port}`;
});
afterAll(() => aa.close());

describe('attestation agents', () => {
  it('MOCK signs with a local key and never claims hardware', async () => {
    const ev = await sampleEvidence('m-1');
    expect(ev.attestation).toMatchObject({ provider: 'MOCK', hardware_attested: false });
    expect(verifyEvidenceSignature(ev)).toEqual({ valid: true });
    const result = await assess(ev, () => ({ deploymentMode: 'sidecar' }), sampleQuoteVerifier());
    expect(result).toMatchObject({
      hardware_attested: false,
      quote: 'not_provided',
      trust_tier: 'mtls_verified',
    });
  });

  it('rotates keys: new key id, old signatures still verify with the old key', async () => {
    const agent = createAttestationAgent({ provider: 'MOCK' });
    const before = agent.binding();
    const old = await signEvidence({ ...(await sampleEvidence('r-1')), attestation: before }, agent);
    agent.keys.rotate();
    const after = agent.binding();
    expect(after.key_id).not.toBe(before.key_id);
    expect(agent.keys.publicKeys().map((k) => k.keyId)).toEqual([before.key_id, after.key_id]);
    expect(verifyEvidenceSignature(old, agent.keys.get(before.key_id)!.publicKey).valid).toBe(true);
    expect(verifyEvidenceSignature(old, after.public_key).valid).toBe(false);
  });

  it('COCO binds the Evidence hash into runtime_data and the Verifier checks the binding', async () => {
    const agent = createAttestationAgent({ provider: 'COCO', coco: { baseUrl: aaUrl } });
    const base = await sampleEvidence('c-1');
    const ev = await signEvidence({ ...base, attestation: agent.binding() }, agent);
    expect(ev.tee_evidence).toBeDefined();
    const quote = JSON.parse(Buffer.from(ev.tee_evidence!, 'base64').toString('utf8')) as {
      report_data: string;
    };
    expect(Buffer.from(quote.report_data, 'base64').toString()).toBe(runtimeDataOf(signingPayload(ev)));
    const ok = await assess(ev, () => ({ deploymentMode: 'sidecar' }), sampleQuoteVerifier());
    expect(ok).toMatchObject({ quote: 'verified', hardware_attested: false, trust_tier: 'mtls_verified' });
    const swapped = {
      ...ev,
      tee_evidence: Buffer.from(
        JSON.stringify({ svn: '1', report_data: Buffer.from('other').toString('base64') }),
      ).toString('base64'),
    };
    expect((await assess(swapped, () => undefined, sampleQuoteVerifier())).quote).toBe(
      'QuoteVerificationFailed',
    );
    expect((await assess(ev, () => undefined, sampleQuoteVerifier({ measurements: ['7'] }))).quote).toBe(
      'MeasurementMismatch',
    );
    expect(await new CocoClient({ baseUrl: aaUrl }).token()).toContain('token');
  });

  it('reports an unreachable attestation-agent as NetworkError', async () => {
    const client = new CocoClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 500 });
    const err = await client.evidence('abc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AttestationError);
    expect((err as AttestationError).name).toBe('NetworkError');
  });
});
