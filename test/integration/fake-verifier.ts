// A loopback stand-in for the Verifier's registry check:
// `GET /registry/check?digest=sha256:<hex>` → `{digest, notarized}`.
// Used only where a test must count the requests the notary client sends (its
// per-digest cache); the admission tests call the real Verifier API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeVerifier {
  url: string;
  notarized: Set<string>;
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeVerifier(notarized: string[]): Promise<FakeVerifier> {
  const state = { notarized: new Set(notarized), requests: [] as string[] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://verifier');
    const digest = url.searchParams.get('digest') ?? '';
    state.requests.push(digest);
    if (req.method !== 'GET' || url.pathname !== '/registry/check' || !/^sha256:[a-f0-9]{64}$/.test(digest)) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'expected GET /registry/check?digest=sha256:<hex>' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ digest, notarized: state.notarized.has(digest) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...state,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
