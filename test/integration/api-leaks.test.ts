// The leak scan (issue 13, CI form): canary credentials go in — a Secret an
// auditor registration refers to, an inline secret in a registration body,
// bearer tokens the API does not know, a wrong secret for a real key id,
// malformed bodies carrying a canary, and every API key the test mints — then
// every route runs with the Owner key (and its error paths: no credential,
// each canary token, malformed JSON; the administrator where the Owner
// is refused). Every response body and header (the
// mint answers without their one `key` field), the namespace's Events,
// Secrets and custom resources, the cluster's AuditorRegistrations, the audit
// log and the API's own log output must hold no 10-character piece of any
// canary or key secret.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../api/routes/index.ts';
import { startApi, type RunningApi } from '../../api/run.ts';
import { loadApiSettings } from '../../api/settings.ts';
import { ALL_KINDS } from '../../crds/index.ts';
import { k8s } from '../../base/kube.ts';
import { createLogger } from '../../base/log.ts';
import { SUBJECTS, defaultOwners, readBootstrapKey } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { GROUP, VERSION } from '../../contract/kube.ts';

const ns = useNamespace('api-leaks');
const rand = (bytes = 24): string => randomBytes(bytes).toString('base64url');
const AUDITOR_ID = `leak-canary-${randomBytes(3).toString('hex')}`;
const CANARY_SECRET_VALUE = `CnrySecret${rand()}`;
const CANARY_INLINE = `CnryInline${rand()}`;
const CANARY_BODY = `CnryBody${rand()}`;
const CANARY_JWT = `eyJhbGciOiJSUzI1NiJ9.${rand(48)}.CnryJwt${rand()}`;
const UNKNOWN_KEY = `pk_0123456789abcdef_${rand(32)}`;
/** A wrong secret presented with a real key's id. */
const WRONG_SECRET = rand(32);
/** `pk_<16 hex id>_` precedes the 43-character secret. */
const secretOf = (key: string): string => key.slice(20);

const logLines: string[] = [];
const seen: { what: string; text: string }[] = [];
const keys = { admin: '', owner: '', editor: '', gateway: '' };
const minted: string[] = [];
const ids = { agent: '', approval: '', policy: '', apiKey: '' };
let api: RunningApi;
/** The audit log and evidence files of this run (scanned as they are on disk). */
const stateDir = mkdtempSync(join(tmpdir(), 'api-leaks-'));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** The headers and body of a request: the key as a bearer token, the body as JSON (or `raw` as is). */
function requestParts(o: { key?: string; body?: unknown; raw?: string }): {
  headers: Record<string, string>;
  body?: string;
} {
  const headers: Record<string, string> = {};
  if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
  const payload = o.raw ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined);
  if (payload === undefined) return { headers };
  headers['content-type'] = 'application/json';
  return { headers, body: payload };
}

/** The body; of an event stream (never ending), what it sent in its first half second, scanned all the same. */
async function bodyText(res: Response): Promise<string> {
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) return res.text();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  const stop = setTimeout(() => void reader.cancel(), 500);
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) break;
    text += value;
  }
  clearTimeout(stop);
  return text;
}

async function call(
  method: string,
  path: string,
  o: { key?: string; body?: unknown; raw?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${api.url}${path}`, { method, ...requestParts(o) });
  const text = await bodyText(res);
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  const heads = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  if (typeof body.key === 'string' && /^pk_/.test(body.key)) {
    // The one answer that carries a key by design: scan it without that field.
    minted.push(body.key);
    const { key: _key, ...rest } = body;
    seen.push({ what: `${method} ${path}`, text: `${heads}\n${JSON.stringify(rest)}` });
  } else {
    seen.push({ what: `${method} ${path} → ${res.status}`, text: `${heads}\n${text}` });
  }
  return { status: res.status, body };
}

async function mint(body: Record<string, unknown>): Promise<string> {
  const r = await call('POST', '/v1/api-keys', { key: keys.admin, body });
  if (r.status !== 201) throw new Error(`minting: ${r.status} ${JSON.stringify(r.body)}`);
  return minted.at(-1)!;
}

const core = () => kubeConfig().makeApiClient(k8s.CoreV1Api);
const custom = () => kubeConfig().makeApiClient(k8s.CustomObjectsApi);

beforeAll(async () => {
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const settings = loadApiSettings(
    {
      PLATFORM_API_PORT: '0',
      PLATFORM_API_METRICS_PORT: '0',
      PLATFORM_API_HOST: '127.0.0.1',
      PLATFORM_API_NAMESPACE: ns.name,
      PLATFORM_WATCH_NAMESPACE: ns.name,
      // Files of this run's own: the stores are scanned too, and one process writes each.
      PLATFORM_API_AUDIT_LOG: join(stateDir, 'audit.jsonl'),
      PLATFORM_EVIDENCE_FILE: join(stateDir, 'evidence.jsonl'),
    },
    {},
  );
  api = await startApi({
    kc: kubeConfig(),
    settings,
    log: createLogger('api', { level: 'trace', destination: capture }),
  });
  await Promise.all(api.informers.all.map((i) => i.waitForSync(30_000)));
  keys.admin = await readBootstrapKey(ns.name);
  keys.owner = await mint({ subject: SUBJECTS.owner });
  keys.editor = await mint({ subject: SUBJECTS.editor });
  keys.gateway = await mint({ subject: 'gateway@example.com', role: 'gateway', workspaces: [ns.name] });
  await core().createNamespacedSecret({
    namespace: ns.name,
    body: { metadata: { name: 'leak-canary' }, stringData: { token: CANARY_SECRET_VALUE } },
  });
  const created = await call('POST', '/v1/agents', {
    key: keys.admin,
    body: { namespace: ns.name, name: 'leaky', spec: { owners: defaultOwners(), model: { id: 'gpt-test' } } },
  });
  expect(created.status).toBe(201);
  ids.agent = `${ns.name}.leaky`;
  ids.policy = `${ns.name}.leak-policy`;
  await eventually(
    async () =>
      (await call('GET', `/v1/agents/${ids.agent}`, { key: keys.owner })).status === 200 ? true : undefined,
    'agent cached',
  );
  const action = await call('POST', `/v1/agents/${ids.agent}/actions`, {
    key: keys.editor,
    body: { action: 'write', target: 'repo://leaky/main', description: 'push' },
  });
  ids.approval = String((action.body.approval as { id?: string } | undefined)?.id ?? '');
  await eventually(
    async () =>
      (await call('GET', `/v1/approvals/${ids.approval}`, { key: keys.owner })).status === 200
        ? true
        : undefined,
    'approval cached',
  );
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await custom()
    .deleteClusterCustomObject({
      group: GROUP,
      version: VERSION,
      plural: 'auditorregistrations',
      name: AUDITOR_ID,
    })
    .catch(() => undefined);
});

/** Plausible bodies per route; routes not named here get `{}`. */
function sampleBody(method: string, path: string): unknown {
  const bodies: Record<string, unknown> = {
    'POST /v1/agents': { namespace: ns.name, name: 'leaky-two', spec: { owners: defaultOwners() } },
    'PATCH /v1/agents/{agent_id}': { spec: { model: { id: 'gpt-test-2' } } },
    'POST /v1/agents/{agent_id}/suspend': { reason: 'leak scan' },
    'POST /v1/agents/{agent_id}/reactivate': { reason: 'leak scan' },
    'POST /v1/agents/{agent_id}/shares': { subject: SUBJECTS.stranger, role: 'Viewer' },
    'POST /v1/agents/{agent_id}/actions': { action: 'send', target: 'mail://team', description: 'report' },
    'POST /v1/approvals/{id}/approve': { reason: 'fine' },
    'POST /v1/approvals/{id}/deny': { reason: 'late' },
    'POST /v1/api-keys': { description: 'spare key' },
    'POST /v1/registry/notarizations': { digest: `sha256:${'c'.repeat(64)}` },
    'POST /v1/evidence': { agent_id: ids.agent, signature: CANARY_BODY },
    'POST /v1/policies': { id: ids.policy, spec: { scope: 'workspace', scopeId: ns.name } },
    'PUT /v1/policies/{id}': { spec: { scope: 'workspace', scopeId: ns.name } },
    'POST /api/v1/workspaces/{id}/apply-preset': { tier: 'Starter' },
    'POST /v1/auditors/register': registration(),
  };
  return bodies[`${method} ${path}`] ?? {};
}

function registration(): Record<string, unknown> {
  return {
    auditor_id: AUDITOR_ID,
    endpoint: 'https://auditor.example.com',
    deployment_mode: 'external',
    auth: { type: 'api_key', secret_ref: { name: 'leak-canary', key: 'token' }, api_key: CANARY_INLINE },
  };
}

function fill(path: string): string {
  const id = path.startsWith('/v1/approvals')
    ? ids.approval
    : path.startsWith('/v1/api-keys')
      ? ids.apiKey
      : path.startsWith('/api/v1/workspaces')
        ? ns.name
        : ids.policy;
  return path
    .replace('{agent_id}', ids.agent)
    .replace('{id}', id)
    .replace('{subject}', encodeURIComponent(SUBJECTS.stranger))
    .replace('{digest}', `sha256:${'c'.repeat(64)}`);
}

async function exerciseEveryRoute(): Promise<void> {
  const badTokens = [UNKNOWN_KEY, CANARY_JWT, `pk_${minted[0]!.slice(3, 19)}_${WRONG_SECRET}`];
  for (const r of ROUTES) {
    const path = fill(r.path);
    const body = r.body ? sampleBody(r.method, r.path) : undefined;
    await call(r.method, path, {});
    for (const token of badTokens) await call(r.method, path, { key: token, body });
    if (r.body) {
      await call(r.method, path, { key: keys.owner, raw: `{"token": ${CANARY_BODY}}` });
      await call(r.method, path, { key: keys.owner, raw: CANARY_BODY });
      await call(r.method, path, {
        key: keys.owner,
        body: { token: CANARY_BODY, unknown_field: [CANARY_BODY] },
      });
    }
    const answer = await call(r.method, path, { key: keys.owner, body });
    if (r.method === 'POST' && r.path === '/v1/api-keys') ids.apiKey = String(answer.body.id ?? '');
    // Administrator routes refuse the Owner: run their handlers too.
    if (answer.status === 403) await call(r.method, path, { key: keys.admin, body });
  }
  // The administrator's own paths: a registration naming the canary Secret (and an inline secret it must drop).
  expect(
    (await call('POST', '/v1/auditors/register', { key: keys.admin, body: registration() })).status,
  ).toBeLessThan(300);
  await call('GET', '/v1/auditors', { key: keys.admin });
  await call('GET', '/v1/audit?limit=1000', { key: keys.admin });
  await call('GET', '/v1/audit/verify', { key: keys.admin });
  await call('GET', '/v1/api-keys', { key: keys.admin });
  await call('POST', '/v1/evidence', { key: keys.gateway, body: sampleBody('POST', '/v1/evidence') });
}

async function clusterTexts(): Promise<{ what: string; text: string }[]> {
  const out: { what: string; text: string }[] = [];
  const events = await core().listNamespacedEvent({ namespace: ns.name });
  out.push({ what: 'events', text: JSON.stringify(events.items) });
  const secrets = await core().listNamespacedSecret({ namespace: ns.name });
  for (const s of secrets.items) {
    // The bootstrap Secret holds the admin key by design, the canary Secret its canary.
    if (['platform-api-bootstrap', 'leak-canary'].includes(s.metadata?.name ?? '')) continue;
    out.push({ what: `secret ${s.metadata?.name}`, text: JSON.stringify(s) });
  }
  for (const kind of ALL_KINDS) {
    const list = (
      kind.scope === 'Namespaced'
        ? await custom().listNamespacedCustomObject({
            group: GROUP,
            version: VERSION,
            namespace: ns.name,
            plural: kind.plural,
          })
        : await custom().listClusterCustomObject({ group: GROUP, version: VERSION, plural: kind.plural })
    ) as { items: unknown[] };
    out.push({ what: kind.plural, text: JSON.stringify(list.items) });
  }
  const audit = await api.deps.audit.query({ limit: 10_000 });
  out.push({ what: 'audit log', text: JSON.stringify(audit) });
  for (const file of readdirSync(stateDir)) {
    out.push({ what: `file ${file}`, text: readFileSync(join(stateDir, file), 'utf8') });
  }
  return out;
}

/** Every 10-character piece of each needle: a truncated echo is still a leak. */
function hits(haystacks: { what: string; text: string }[], needles: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [name, needle] of Object.entries(needles)) {
    const pieces = Array.from({ length: needle.length - 9 }, (_, i) => needle.slice(i, i + 10));
    for (const h of haystacks) {
      const piece = pieces.find((p) => h.text.includes(p));
      if (piece) found.push(`${name} (${piece}) in ${h.what}`);
    }
  }
  return found;
}

describe('leak scan with canary credentials', () => {
  it('no canary or key secret appears in any response, header, Event, Secret, resource, audit entry or log line', async () => {
    await exerciseEveryRoute();
    expect(minted.length).toBeGreaterThanOrEqual(4);
    const stored = await eventually(async () => {
      const r = (await custom()
        .getClusterCustomObject({
          group: GROUP,
          version: VERSION,
          plural: 'auditorregistrations',
          name: AUDITOR_ID,
        })
        .catch(() => undefined)) as { spec?: { auth?: Record<string, unknown> } } | undefined;
      return r?.spec?.auth ? r : undefined;
    }, 'registration stored');
    expect(stored.spec?.auth).toMatchObject({
      type: 'api_key',
      secretRef: { name: 'leak-canary', key: 'token' },
    });
    const needles: Record<string, string> = {
      'canary Secret value': CANARY_SECRET_VALUE,
      'inline registration secret': CANARY_INLINE,
      'canary in a body': CANARY_BODY,
      'unknown bearer JWT': CANARY_JWT.slice(CANARY_JWT.lastIndexOf('.') + 1),
      'unknown API key secret': secretOf(UNKNOWN_KEY),
      'wrong secret for a real key id': WRONG_SECRET,
      'bootstrap admin key secret': secretOf(keys.admin),
    };
    minted.forEach((k, i) => (needles[`minted key ${i} secret`] = secretOf(k)));
    const haystacks = [...seen, ...(await clusterTexts()), { what: 'API log', text: logLines.join('') }];
    expect(seen.length).toBeGreaterThan(ROUTES.length * 5);
    expect(logLines.length).toBeGreaterThan(ROUTES.length);
    expect(hits(haystacks, needles)).toEqual([]);
  });
});
