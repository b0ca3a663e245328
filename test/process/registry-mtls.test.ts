// The registry's GET to an mTLS endpoint (decisions 129, 136) against a real
// https server on loopback that requires a client certificate from its CA:
// the registration's certificate (the server's own, or its issuer) trusted,
// the platform's client certificate presented; refusals said in words; the
// client certificate read from files that may not exist yet.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointRequest, type ClientCertificate } from '../../base/registry-auth.ts';
import { readClientCertificate } from '../../base/registry-credentials.ts';
import { registryGet, type RegistryGetError } from '../../base/registry-get.ts';
import { issueCa, issueClient, issueServing } from '../../base/tls/certs.ts';

const now = new Date();
const serverCa = issueCa(now, 1, 'auditor-ca');
const serving = issueServing(serverCa, { dnsNames: [], ipAddresses: ['127.0.0.1'] }, now, 1);
const clientCa = issueCa(now, 1, 'platform-client-ca');
const issued = issueClient(clientCa, 'platform-operator', now, 1);
const client: ClientCertificate = { cert: issued.certPem, key: issued.keyPem };
const LIMITS = { timeoutMs: 10_000, maxBytes: 65_536 };
let server: Server;
let endpoint: string;

beforeAll(async () => {
  const tls = { cert: serving.certPem, key: serving.keyPem, ca: clientCa.certPem };
  server = createServer({ ...tls, requestCert: true, rejectUnauthorized: true }, (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function get(certPem: string, creds: { client?: ClientCertificate }): Promise<unknown> {
  const url = `${endpoint}/health`;
  return registryGet(url, endpointRequest(url, endpoint, { type: 'mtls', certPem }, creds), LIMITS).then(
    (r) => r,
    (err: RegistryGetError) => ({ failed: err.message }),
  );
}

describe('an mTLS registration reached over https', () => {
  it('trusts the server’s own certificate as registered, though a CA issued it', async () => {
    expect(await get(serving.certPem, { client })).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it('trusts the server’s CA as registered', async () => {
    expect(await get(serverCa.certPem, { client })).toEqual({ status: 200, body: '{"status":"ok"}' });
  });

  it('says so when the endpoint requires a client certificate and none is configured', async () => {
    expect(await get(serving.certPem, {})).toEqual({
      failed:
        'the endpoint requires a client certificate and none was presented (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED)',
    });
  });

  it('refuses a server whose certificate is neither the registered one nor issued by it', async () => {
    const other = issueCa(now, 1, 'someone-else');
    expect(await get(other.certPem, { client })).toEqual({
      failed:
        'the endpoint’s certificate is not the registered one nor issued by it (UNABLE_TO_GET_ISSUER_CERT_LOCALLY)',
    });
  });
});

describe('the platform’s client certificate files', () => {
  it('are none while they do not exist, and read as they are once they do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-client-'));
    const files = { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key') };
    try {
      expect(await readClientCertificate(files)).toEqual({});
      writeFileSync(files.cert, client.cert);
      writeFileSync(files.key, client.key);
      expect(await readClientCertificate(files)).toEqual({ client });
      expect(await readClientCertificate(undefined)).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name the problem when they cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-client-'));
    try {
      // A directory where the certificate file should be.
      expect(await readClientCertificate({ cert: dir, key: dir })).toEqual({
        problem: 'the platform’s client certificate could not be read (EISDIR)',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
