// The credential proxy in a running agent pod (issue 19): the `summarizer`
// agent calls a tool server that runs as its own pod on port 8443. Its
// workspace routes that host to a workspace credential made through the API
// (the material is a canary): the tool receives the credential, the agent
// never sees it and its own Authorization is dropped; a request whose Host
// names no port still reaches 8443 (the original destination, read from the
// kernel); a DELETE is held until an Owner approves it, an Editor cannot, and
// only then reaches the tool; a second tool pod is reached with a token of
// the agent's own OAuth client (client_credentials, its SVID as assertion);
// a third for a user, with an RFC 8693 delegation token made from that user's
// own token while their grant is active (token_exchange), refused once the
// grant is revoked.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBinary, REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { verifierUrl } from '../../hack/system/roles.ts';
import { podName, waitAgentReady, type AgentRef } from './agents.ts';
import { inject } from 'vitest';
import { userTokenSigner } from '../fixtures/oidc-issuer.ts';
import { api, eventually, kubeconfigPath, kubectl, kubectlOk, topology, userKey } from './support.ts';

const SUMMARIZER: AgentRef = { namespace: 'default', name: 'summarizer' };
const CANARY = `e2e-canary-${Date.now().toString(36)}`;
const TOOL = 'egress-tool';
const CC_TOOL = 'egress-tool-cc';
const OBO_TOOL = 'egress-tool-obo';
const OBO_USER = 'bob@example.com';
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

// The tool: answers every request with what it saw, the Authorization only as a hash; `/_seen` lists them.
const TOOL_SCRIPT = `
const http = require('node:http'); const { createHash } = require('node:crypto');
const seen = [];
http.createServer((req, res) => {
  if (req.url === '/_seen') return res.end(JSON.stringify(seen));
  const auth = req.headers.authorization ?? '';
  seen.push({ method: req.method, url: req.url, auth });
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ method: req.method, url: req.url, auth_sha256: createHash('sha256').update(auth).digest('hex') }));
}).listen(8443, () => console.log('tool listening on 8443'));
`;

interface Seen {
  method: string;
  url: string;
  auth: string;
}

function toolPod(name: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: {
      containers: [
        {
          name: 'tool',
          image: 'localhost/agent-platform/agent-runtime:dev',
          imagePullPolicy: 'Never',
          command: ['node', '-e', TOOL_SCRIPT],
          ports: [{ containerPort: 8443 }],
        },
      ],
    },
  };
}

const seenByTool = (pod = TOOL): Seen[] =>
  JSON.parse(
    kubectlOk([
      '-n',
      'default',
      'exec',
      pod,
      '--',
      'node',
      '-e',
      "fetch('http://127.0.0.1:8443/_seen').then(r=>r.text()).then(console.log)",
    ]),
  ) as Seen[];

/** Runs `script` with node inside the agent container; resolves with its stdout (it may wait for an approval). */
function inAgent(script: string): Promise<string> {
  const bin = findBinary('kubectl') as string;
  const args = [
    '--kubeconfig',
    kubeconfigPath(),
    '-n',
    'default',
    'exec',
    podName(SUMMARIZER),
    '-c',
    'agent',
    '--',
    'node',
    '-e',
    script,
  ];
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', () => resolve(out.trim()));
  });
}

const fetchScript = (url: string, init: object): string =>
  `fetch(${JSON.stringify(url)}, ${JSON.stringify(init)}).then(async (r) => console.log(r.status, await r.text()), (e) => console.log('error', e.cause?.code ?? e.message))`;

async function as<T>(
  key: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${verifierUrl(topology())}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

let toolIp = '';
let ccToolIp = '';
let oboToolIp = '';
let credentialId = '';
let originalRules: unknown[] = [];

const workspaceRules = (rules: unknown[]): void => {
  kubectlOk([
    '-n',
    'default',
    'patch',
    'platformworkspace',
    'research',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ spec: { environment: { credentialRouting: rules } } }),
  ]);
};

/** Starts a tool pod (again) and resolves with its IP once it serves. */
async function startTool(name: string): Promise<string> {
  kubectl(['-n', 'default', 'delete', 'pod', name, '--ignore-not-found', '--wait=true']);
  kubectlOk(['apply', '-f', '-'], JSON.stringify(toolPod(name)));
  const field = (path: string): string =>
    kubectl(['-n', 'default', 'get', 'pod', name, '-o', `jsonpath={${path}}`]).stdout.trim();
  return eventually(() => {
    const ip = field('.status.podIP');
    return ip && field('.status.containerStatuses[0].ready') === 'true' ? ip : undefined;
  }, `the tool pod ${name} running`);
}

beforeAll(async () => {
  kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);
  [toolIp, ccToolIp, oboToolIp] = await Promise.all([
    startTool(TOOL),
    startTool(CC_TOOL),
    startTool(OBO_TOOL),
  ]);
  const created = await api<{ id: string }>('/v1/scoped-credentials', {
    method: 'POST',
    body: JSON.stringify({
      scope: 'workspace',
      scope_id: 'default.research',
      service: 'e2e-tool',
      material: CANARY,
    }),
  });
  expect(created.status).toBe(201);
  credentialId = created.body.id;
  const ws = JSON.parse(
    kubectlOk(['-n', 'default', 'get', 'platformworkspace', 'research', '-o', 'json']),
  ) as {
    spec: { environment?: { credentialRouting?: unknown[] } };
  };
  originalRules = ws.spec.environment?.credentialRouting ?? [];
  const rule = {
    destination: toolIp,
    credentialRef: credentialId.split('.').slice(1).join('.'),
    injectionMethod: 'sidecar',
  };
  // The second tool is reached as the agent itself: a token of its own OAuth client (its SVID as assertion).
  // The third for a user: a delegation token exchanged from the user's own token (OBO).
  workspaceRules([
    ...originalRules,
    rule,
    { destination: ccToolIp, injectionMethod: 'client_credentials' },
    { destination: oboToolIp, injectionMethod: 'token_exchange' },
  ]);
}, 300_000);

afterAll(async () => {
  workspaceRules(originalRules);
  if (credentialId) await api(`/v1/scoped-credentials/${credentialId}`, { method: 'DELETE' });
  for (const pod of [TOOL, CC_TOOL, OBO_TOOL])
    kubectl(['-n', 'default', 'delete', 'pod', pod, '--ignore-not-found', '--wait=false']);
});

describe('the credential proxy in a running agent pod', () => {
  it("injects the workspace credential into the agent's call, drops the agent's own, and never shows it to the agent", async () => {
    await waitAgentReady(SUMMARIZER);
    const url = `http://${toolIp}:8443/items?page=1`;
    // The proxy reads the new rule within its refresh (30 s).
    const said = await eventually(
      async () => {
        const out = await inAgent(fetchScript(url, { headers: { authorization: 'Bearer agent-made' } }));
        return out.includes(sha256(`Bearer ${CANARY}`)) ? out : undefined;
      },
      'the call carrying the injected credential',
      180_000,
    );
    expect(said).toMatch(/^200 /);
    expect(said).not.toContain(CANARY);
    // Calls made before the proxy read the rule went out unrouted, with the agent's header (no rule, nothing
    // to drop); once the rule is in force, every call carries the injected credential and never the agent's.
    const before = seenByTool().length;
    const again = await inAgent(fetchScript(url, { headers: { authorization: 'Bearer agent-made' } }));
    expect(again).toMatch(/^200 /);
    const seen = seenByTool()
      .slice(before)
      .filter((s) => s.url === '/items?page=1');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.auth === `Bearer ${CANARY}`)).toBe(true);
  }, 300_000);

  it('keeps the original destination port when the Host header names none', async () => {
    const script = `const s = require('node:net').connect(8443, ${JSON.stringify(toolIp)}, () => s.write('GET /no-port HTTP/1.1\\r\\nHost: ${toolIp}\\r\\nConnection: close\\r\\n\\r\\n')); let o=''; s.on('data', (c) => o += c); s.on('close', () => console.log(o.split('\\r\\n')[0])); s.on('error', (e) => console.log('error', e.code));`;
    expect(await inAgent(script)).toBe('HTTP/1.1 200 OK');
    expect(seenByTool().some((s) => s.url === '/no-port')).toBe(true);
  });

  it('holds a DELETE until an Owner approves; an Editor cannot; nothing reaches the tool before', async () => {
    const [alice, bob] = [await userKey('alice@example.com'), await userKey('bob@example.com')];
    const call = inAgent(fetchScript(`http://${toolIp}:8443/items/7`, { method: 'DELETE' }));
    const approval = await eventually(async () => {
      const pending = await as<{ items: { id: string; target: string; action: string }[] }>(
        alice,
        '/v1/approvals',
      );
      return pending.body.items?.find((a) => a.target.includes(`${toolIp}:8443/items/7`));
    }, 'the approval request for the held DELETE');
    expect(approval.action).toBe('delete');
    expect(seenByTool().some((s) => s.method === 'DELETE')).toBe(false);

    const byEditor = await as<{ code?: string }>(bob, `/v1/approvals/${approval.id}/approve`, {
      method: 'POST',
      body: '{}',
    });
    expect(byEditor.status).toBe(403);
    expect(seenByTool().some((s) => s.method === 'DELETE')).toBe(false);

    const byOwner = await as(alice, `/v1/approvals/${approval.id}/approve`, { method: 'POST', body: '{}' });
    expect(byOwner.status).toBe(200);
    expect(await call).toMatch(/^200 /);
    expect(
      seenByTool()
        .filter((s) => s.method === 'DELETE')
        .map((s) => s.url),
    ).toEqual(['/items/7']);
  });

  it("reaches a tool as the agent itself with a token of the agent's own OAuth client", async () => {
    const said = await eventually(
      async () => {
        const out = await inAgent(fetchScript(`http://${ccToolIp}:8443/reports`, {}));
        return out.startsWith('200 ') ? out : undefined;
      },
      'the autonomous call',
      240_000,
    );
    expect(said).not.toContain('eyJ');
    const auth = seenByTool(CC_TOOL).find((s) => s.url === '/reports')?.auth ?? '';
    expect(auth).toMatch(/^Bearer eyJ/);
    const claims = JSON.parse(Buffer.from(auth.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: string;
    };
    expect(String(claims.sub)).toContain('summarizer');
  }, 300_000);

  it("acts for a user with a delegation token while the user's grant is active, and stops once it is revoked", async () => {
    const sign = await userTokenSigner(inject('e2eOidc').url, inject('e2eOidc').privateJwk);
    const [alice, bob] = [await userKey('alice@example.com'), await userKey(OBO_USER)];
    const base = '/v1/agents/default.summarizer/delegations';
    const consent = await as<{ id: string }>(alice, `${base}/pending`, {
      method: 'POST',
      body: JSON.stringify({ user: OBO_USER, service: oboToolIp, scopes: ['mail:read'] }),
    });
    expect(consent.status, JSON.stringify(consent.body)).toBe(201);
    const grant = await as<{ id: string }>(bob, base, {
      method: 'POST',
      body: JSON.stringify({ consent_id: consent.body.id }),
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(201);
    // Each call carries a fresh user token: a user token belongs to the first agent that exchanges it.
    const callAsBob = async (): Promise<string> =>
      inAgent(
        fetchScript(`http://${oboToolIp}:8443/mail`, {
          headers: { 'x-platform-subject-token': await sign({ sub: OBO_USER }) },
        }),
      );
    const said = await eventually(
      async () => {
        const out = await callAsBob();
        return out.startsWith('200 ') ? out : undefined;
      },
      'the delegated call',
      240_000,
    );
    expect(said).not.toContain('eyJ');
    const auth = seenByTool(OBO_TOOL).findLast((s) => s.url === '/mail')?.auth ?? '';
    const claims = JSON.parse(Buffer.from(auth.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: string;
      act?: { sub?: string };
    };
    expect(claims.sub).toBe(OBO_USER);
    expect(String(claims.act?.sub)).toContain('summarizer');

    const revoked = await as(bob, `${base}/${grant.body.id}`, { method: 'DELETE' });
    expect(revoked.status).toBeLessThan(300);
    const reached = seenByTool(OBO_TOOL).filter((s) => s.url === '/mail').length;
    // The Verifier re-reads the grant on every exchange, so the next call is refused at once
    // (invalid_grant); once the proxy's egress policy follows the revocation, Cedar refuses it first.
    const refused = await callAsBob();
    expect(refused).toMatch(/^403 .*"code":"(invalid_grant|egress_denied)"/);
    expect(seenByTool(OBO_TOOL).filter((s) => s.url === '/mail').length).toBe(reached);
  }, 400_000);
});
