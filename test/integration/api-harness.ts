// Runs the Verifier API in-process against the test control plane, scoped to
// the file's namespace, with one API key per persona of the share-role model.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { PlatformAgent } from '../../crds/generated/types.ts';
import type { MintRequest } from '../../api/auth/key-store.ts';
import { k8s } from '../../base/kube.ts';
import { createLogger } from '../../base/log.ts';
import { startApi, type RunningApi } from '../../api/run.ts';
import type { ShellExec } from '../../api/shell/exec.ts';
import { loadApiSettings } from '../../api/settings.ts';
import { eventually, kubeConfig, type TestNamespace } from './harness.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';

export const PERSONAS = ['org_admin', 'workspace_admin', 'owner', 'editor', 'viewer', 'stranger'] as const;
export type Persona = (typeof PERSONAS)[number];

export const SUBJECTS: Record<Exclude<Persona, 'org_admin'>, string> = {
  workspace_admin: 'wanda@example.com',
  owner: 'olivia@example.com',
  editor: 'eddie@example.com',
  viewer: 'vera@example.com',
  stranger: 'sam@example.com',
};

export interface Reply {
  status: number;
  body: Record<string, unknown> & { detail?: string; code?: string; items?: Record<string, unknown>[] };
  headers: Headers;
}

export interface CallOptions {
  key?: string | undefined;
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiFixture {
  api: RunningApi;
  keys: Record<Persona, string>;
  call(method: string, path: string, o?: CallOptions): Promise<Reply>;
  /** Creates an agent through the API (as org admin) and waits until the cache has it. */
  createAgent(
    name: string,
    owners?: { subject: string; role: string }[],
    spec?: Record<string, unknown>,
  ): Promise<string>;
  /** Waits until a GET as `persona` satisfies `ok`. */
  until(path: string, ok: (r: Reply) => boolean, persona?: Persona): Promise<Reply>;
}

export function defaultOwners(): { subject: string; role: string }[] {
  return [
    { subject: SUBJECTS.owner, role: 'Owner' },
    { subject: SUBJECTS.editor, role: 'Editor' },
    { subject: SUBJECTS.viewer, role: 'Viewer' },
  ];
}

async function send(base: string, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
  let payload: string | Buffer | undefined = o.raw;
  if (o.body !== undefined) payload = JSON.stringify(o.body);
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
  });
  return replyOf(res);
}

async function replyOf(res: Response): Promise<Reply> {
  // An event stream never ends by itself: its status and headers are the answer.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: {}, headers: res.headers };
  }
  const text = await res.text();
  let body: Reply['body'] = {};
  try {
    body = text ? (JSON.parse(text) as Reply['body']) : {};
  } catch {
    body = { detail: `(non-JSON) ${text.slice(0, 200)}` };
  }
  return { status: res.status, body, headers: res.headers };
}

export async function readBootstrapKey(namespace: string, name = 'platform-api-bootstrap'): Promise<string> {
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const secret = await core.readNamespacedSecret({ namespace, name });
  return Buffer.from(secret.data?.['api-key'] ?? '', 'base64').toString('utf8');
}

export interface UseApiOptions {
  /** Where the API logs, at level debug (every line it writes); else stdout at warn. */
  logTo?: NodeJS.WritableStream;
  /** The console shell's exec: this control plane has no kubelet to exec in. */
  shellExec?: ShellExec;
  /** The process environment the API's stores are chosen from (`DATABASE_URL`: all on PostgreSQL). */
  storeEnv?: () => NodeJS.ProcessEnv;
}

export function useApi(
  ns: TestNamespace,
  env: () => Record<string, string> = () => ({}),
  options: UseApiOptions = {},
): ApiFixture {
  const fx = { keys: {} } as ApiFixture;
  beforeAll(async () => {
    const settings = loadApiSettings(
      {
        PLATFORM_API_PORT: '0',
        PLATFORM_API_METRICS_PORT: '0',
        PLATFORM_API_HOST: '127.0.0.1',
        PLATFORM_API_NAMESPACE: ns.name,
        PLATFORM_WATCH_NAMESPACE: ns.name,
        // Test files run side by side: each API its own audit file (one writer per file).
        PLATFORM_API_AUDIT_LOG: join(mkdtempSync(join(tmpdir(), 'api-audit-')), 'audit.jsonl'),
        PLATFORM_EVIDENCE_FILE: join(mkdtempSync(join(tmpdir(), 'api-evidence-')), 'evidence.jsonl'),
        ...env(),
      },
      {},
    );
    const log = options.logTo
      ? createLogger('api', { level: 'debug', destination: options.logTo })
      : createLogger('api', { level: 'warn' });
    fx.api = await startApi({
      kc: kubeConfig(),
      settings,
      log,
      ...(options.shellExec ? { shellExec: options.shellExec } : {}),
      ...(options.storeEnv ? { env: options.storeEnv() } : {}),
    });
    fx.call = (method, path, o) => send(fx.api.url, method, path, o);
    await Promise.all(fx.api.informers.all.map((i) => i.waitForSync(30_000)));
    fx.keys.org_admin = await readBootstrapKey(ns.name);
    for (const persona of PERSONAS.filter((p) => p !== 'org_admin')) {
      const admin = persona === 'workspace_admin';
      const body = {
        subject: SUBJECTS[persona],
        ...(admin ? { role: 'workspace_admin', workspaces: [ns.name] } : {}),
      };
      const r = await fx.call('POST', '/v1/api-keys', { key: fx.keys.org_admin, body });
      if (r.status !== 201) throw new Error(`minting ${persona} key: ${r.status} ${JSON.stringify(r.body)}`);
      fx.keys[persona] = String(r.body.key);
    }
    fx.until = (path, ok, persona = 'org_admin') =>
      eventually(async () => {
        const r = await fx.call('GET', path, { key: fx.keys[persona] });
        return ok(r) ? r : undefined;
      }, `GET ${path}`);
    fx.createAgent = async (name, owners = defaultOwners(), spec = {}) => {
      const r = await fx.call('POST', '/v1/agents', {
        key: fx.keys.org_admin,
        body: { namespace: ns.name, name, spec: { owners, model: { id: 'gpt-test' }, ...spec } },
      });
      if (r.status !== 201) throw new Error(`creating agent ${name}: ${r.status} ${JSON.stringify(r.body)}`);
      const id = `${ns.name}.${name}`;
      await fx.until(`/v1/agents/${id}`, (g) => g.status === 200);
      return id;
    };
  }, 60_000);
  afterAll(async () => {
    await fx.api?.stop();
  });
  return fx;
}

/**
 * One data-access record as an agent's credential proxy posts it: a read of
 * `/items/<n>` at 2030-01-01T00:00:<n>Z (so records sort by `n`), `extra` on top.
 */
export const accessRecord = (n: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  at: new Date(Date.UTC(2030, 0, 1, 0, 0, n)).toISOString(),
  kind: 'https',
  destination: 'api.example.com:443',
  method: 'GET',
  action: 'read',
  path: `/items/${n}`,
  status: 200,
  outcome: 'forwarded',
  bytes_up: 10,
  bytes_down: 20,
  duration_ms: 5,
  ...extra,
});

/**
 * A Gateway key bound to one agent (what the operator mints for its pod),
 * straight from the key store; `cached` also waits until the API's key cache
 * has it, for a test that uses it at once.
 */
export async function agentGatewayKey(fx: ApiFixture, agentId: string, cached = false): Promise<string> {
  const minted = await fx.api.deps.keys.mint(
    {
      subject: `gateway:${agentId}`,
      role: 'gateway',
      workspaces: [],
      agents: [agentId],
      description: 'test',
    } as MintRequest,
    'test',
  );
  if (cached) {
    await eventually(async () => {
      const r = await fx.call('GET', '/v1/api-keys', { key: fx.keys.org_admin });
      return (r.body.items ?? []).some((k) => k.id === minted.record.id) ? true : undefined;
    }, 'the gateway key in the cache');
  }
  return minted.key;
}

/** The PlatformAgent as the apiserver stores it (read past the API). */
export async function storedAgent(namespace: string, name: string): Promise<PlatformAgent> {
  const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  return (await api.getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: 'platformagents',
    namespace,
    name,
  })) as PlatformAgent;
}

/** The two tiers above an agent: an Organization (with its home namespace) and a workspace of it. */
export interface TierSpec {
  org: string;
  homeNamespace: string;
  /** The workspace's namespace (its agents' namespace). */
  namespace: string;
  workspace?: string;
  orgSpec?: Record<string, unknown>;
  workspaceSpec?: Record<string, unknown>;
}

/** Creates the Organization (cluster-scoped: the caller deletes it) and its PlatformWorkspace. */
export async function createTiers(t: TierSpec): Promise<void> {
  const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  const apiVersion = `${GROUP}/${VERSION}`;
  await api.createClusterCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL.organization,
    body: {
      apiVersion,
      kind: 'Organization',
      metadata: { name: t.org },
      spec: { homeNamespace: t.homeNamespace, ...t.orgSpec },
    },
  });
  await api.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL.workspace,
    namespace: t.namespace,
    body: {
      apiVersion,
      kind: 'PlatformWorkspace',
      metadata: { name: t.workspace ?? 'ws' },
      spec: { organization: t.org, ...t.workspaceSpec },
    },
  });
}
