// The console shell (`GET /v1/agents/{agent_id}/console/shell`, a WebSocket)
// against the real apiserver: only an Owner gets a session; Editors, Viewers
// and administrators are refused with a plain HTTP answer, and every attempt
// is in the audit log and the passport's control actions. This control plane
// has no kubelet, so the agent's pod is a stored pod whose status says
// Running, and the exec behind the session is a small line shell in this
// process (the one boundary replaced); the real exec runs in
// test/e2e/console-shell.test.ts.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { k8s } from '../../base/kube.ts';
import type { ExecIo, ShellExec } from '../../api/shell/exec.ts';
import type { ShellTarget } from '../../api/shell/target.ts';
import type { ControlAction } from '../../api/shell/control-actions.ts';
import { SUBJECTS, useApi } from './api-harness.ts';
import { eventually, kubeConfig, useNamespace } from './harness.ts';
import { mergePatch } from './platform-client.ts';
import { LABEL } from '../../contract/kube.ts';

/** Answers like `/bin/sh` for the few commands the tests send; `exit N` ends it. */
function lineShell(target: ShellTarget, io: ExecIo): { write(data: string): void } {
  let buffer = '';
  const run = (line: string): void => {
    const [cmd, ...args] = line.trim().split(/\s+/);
    if (cmd === 'echo') io.stdout(`${args.join(' ')}\n`);
    else if (cmd === 'id') io.stdout('1000\n');
    else if (cmd === 'hostname') io.stdout(`${target.pod}/${target.container}\n`);
    else if (cmd === 'exit') io.ended(Number(args[0] ?? 0));
    else if (cmd) io.stderr(`sh: ${cmd}: not found\n`);
  };
  return {
    write(data) {
      buffer += data;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        run(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    },
  };
}

const fakeExec: ShellExec = (target, _tty, io) => {
  const shell = lineShell(target, io);
  return Promise.resolve({ write: (d) => shell.write(d), resize: () => undefined, close: () => undefined });
};

const ns = useNamespace('console-shell');
const fx = useApi(ns, () => ({}), { shellExec: fakeExec });

type Opened =
  | { refused: true; status: number; body: { detail?: string; code?: string } }
  | {
      refused: false;
      ws: WebSocket;
      protocol: string;
      frames: Record<string, unknown>[];
      closed: Promise<[number, string]>;
    };

/** Opens the shell as a WebSocket: the session, or the plain HTTP refusal. */
function openShell(path: string, o: { key?: string; protocols?: string[] } = {}): Promise<Opened> {
  const url = `${fx.api.url.replace('http', 'ws')}${path}`;
  const headers = o.key ? { authorization: `Bearer ${o.key}` } : {};
  const ws = new WebSocket(url, o.protocols ?? [], { headers });
  return new Promise((resolve, reject) => {
    const frames: Record<string, unknown>[] = [];
    const closed = new Promise<[number, string]>((done) => ws.on('close', (c, r) => done([c, r.toString()])));
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    ws.on('open', () => resolve({ refused: false, ws, protocol: ws.protocol, frames, closed }));
    ws.on('unexpected-response', (_req, res: IncomingMessage) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({ refused: true, status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }),
      );
    });
    ws.on('error', reject);
  });
}

async function refusal(path: string, o: { key?: string; protocols?: string[] } = {}) {
  const r = await openShell(path, o);
  if (!r.refused) {
    r.ws.close();
    throw new Error('expected a refusal, got a session');
  }
  return r;
}

async function session(path: string, o: { key?: string; protocols?: string[] } = {}) {
  const r = await openShell(path, o);
  if (r.refused) throw new Error(`expected a session, got ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

const shellPath = (id: string, query = ''): string => `/v1/agents/${id}/console/shell${query}`;

/** A pod of the agent that the apiserver says is Running (no kubelet here to run it). */
async function runningPod(agent: string): Promise<void> {
  const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
  const name = `agent-${agent}`;
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name, labels: { [LABEL.agent]: agent } },
      spec: {
        containers: [
          { name: 'platform-gateway', image: 'example.invalid/gateway' },
          { name: 'agent', image: 'example.invalid/agent' },
        ],
      },
    },
  });
  await core.patchNamespacedPodStatus(
    { namespace: ns.name, name, body: { status: { phase: 'Running' } } },
    mergePatch,
  );
}

async function controlActions(
  id: string,
  persona: 'owner' | 'viewer' | 'org_admin',
): Promise<ControlAction[]> {
  const r = await fx.call('GET', `/v1/agents/${id}/passport`, { key: fx.keys[persona] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.control_actions as ControlAction[];
}

const frameText = (frames: Record<string, unknown>[], type: string): string =>
  frames
    .filter((f) => f.type === type)
    .map((f) => String(f.data))
    .join('');

describe('the console shell', () => {
  it('answers a plain GET with 426 upgrade_required', async () => {
    const id = await fx.createAgent('plain');
    const r = await fx.call('GET', shellPath(id), { key: fx.keys.owner });
    expect(r.status).toBe(426);
    expect(r.body.code).toBe('upgrade_required');
    expect(r.headers.get('upgrade')).toBe('websocket');
  });

  it('refuses an upgrade without a credential with 401, and unknown or malformed agents with 404 and 400', async () => {
    const id = await fx.createAgent('anon');
    const anonymous = await refusal(shellPath(id));
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    expect(await refusal(shellPath(`${ns.name}.nobody`), { key: fx.keys.owner })).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(await refusal(shellPath('no-dot-here'), { key: fx.keys.owner })).toMatchObject({
      status: 400,
      body: { code: 'invalid_id' },
    });
    expect(await refusal(shellPath(id, '?tty=maybe'), { key: fx.keys.owner })).toMatchObject({ status: 400 });
  });

  it('refuses Editors, Viewers and administrators with 403 and records each attempt', async () => {
    const id = await fx.createAgent('guarded');
    for (const persona of ['editor', 'viewer', 'org_admin', 'workspace_admin', 'stranger'] as const) {
      const r = await refusal(shellPath(id), { key: fx.keys[persona] });
      expect(r.status, persona).toBe(403);
      expect(r.body.code).toBe('forbidden');
    }
    const audit = await fx.call('GET', `/v1/audit?action=agent.console.shell&resource=${id}`, {
      key: fx.keys.org_admin,
    });
    const refused = (audit.body.items ?? []).filter((e) => e.status === 403).map((e) => e.subject);
    expect(refused).toEqual(expect.arrayContaining([SUBJECTS.editor, SUBJECTS.viewer, SUBJECTS.stranger]));
    const actions = await controlActions(id, 'viewer');
    const denied = actions.filter((a) => a.outcome === 'denied').map((a) => a.subject);
    expect(denied).toEqual(expect.arrayContaining([SUBJECTS.editor, SUBJECTS.viewer]));
  });

  it('answers an Owner 409 agent_not_running while no pod of the agent runs, and records it', async () => {
    const id = await fx.createAgent('idle');
    const r = await refusal(shellPath(id), { key: fx.keys.owner });
    expect(r).toMatchObject({ status: 409, body: { code: 'agent_not_running' } });
    const [action] = await controlActions(id, 'owner');
    expect(action).toMatchObject({ subject: SUBJECTS.owner, status: 409, outcome: 'failed' });
  });

  it("bridges an Owner's session to the agent container: output, exit code, and the commands in the passport", async () => {
    const id = await fx.createAgent('busy');
    await runningPod('busy');
    const s = await session(shellPath(id), { key: fx.keys.owner });
    expect(s.protocol).toBe('');
    for (const line of ['echo hello shell\n', 'id -u\n', 'hostname\n', 'nope\n', 'exit 3\n'])
      s.ws.send(JSON.stringify({ type: 'stdin', data: line }));
    expect(await s.closed).toEqual([1000, 'the shell exited']);
    expect(frameText(s.frames, 'stdout')).toBe('hello shell\n1000\nagent-busy/agent\n');
    expect(frameText(s.frames, 'stderr')).toBe('sh: nope: not found\n');
    expect(s.frames.at(-1)).toEqual({ type: 'exit', code: 3 });
    const [owned] = await controlActions(id, 'owner');
    expect(owned).toMatchObject({
      subject: SUBJECTS.owner,
      outcome: 'allowed',
      exit_code: 3,
      commands_count: 5,
      commands: ['echo hello shell', 'id -u', 'hostname', 'nope', 'exit 3'],
    });
    expect(owned!.ended_at).not.toBeNull();
    // A Viewer reads the passport too: who, when and how many, not what was typed (decision 179).
    const [seen] = await controlActions(id, 'viewer');
    expect(seen).toMatchObject({ session_id: owned!.session_id, commands_count: 5 });
    expect(seen!.commands).toBeUndefined();
  });

  it('takes the token from a subprotocol and answers with platform.console.v1', async () => {
    const id = await fx.createAgent('browser');
    await runningPod('browser');
    const carrier = `base64url.bearer.authorization.platform.io.${Buffer.from(fx.keys.owner).toString('base64url')}`;
    const s = await session(shellPath(id, '?tty=1'), { protocols: ['platform.console.v1', carrier] });
    expect(s.protocol).toBe('platform.console.v1');
    s.ws.send(JSON.stringify({ type: 'resize', cols: 100, rows: 30 }));
    s.ws.send(JSON.stringify({ type: 'stdin', data: 'echo hi\n' }));
    s.ws.close(1000);
    await s.closed;
    expect(
      await refusal(shellPath(id), { protocols: ['platform.console.v1', carrier.replace(/.$/, '+')] }),
    ).toMatchObject({ status: 400, body: { code: 'invalid_subprotocol' } });
    expect(await refusal(shellPath(id), { protocols: [carrier] })).toMatchObject({ status: 400 });
    const viewerCarrier = `base64url.bearer.authorization.platform.io.${Buffer.from(fx.keys.viewer).toString('base64url')}`;
    expect(await refusal(shellPath(id), { protocols: ['platform.console.v1', viewerCarrier] })).toMatchObject(
      {
        status: 403,
      },
    );
  });

  it('closes a session with 1008 on a bad frame and still records it', async () => {
    const id = await fx.createAgent('strict');
    await runningPod('strict');
    for (const bad of [
      'not json',
      JSON.stringify({ type: 'exec', data: 'ls' }),
      JSON.stringify({ type: 'stdin', data: 'x'.repeat(70_000) }),
    ]) {
      const s = await session(shellPath(id), { key: fx.keys.owner });
      s.ws.send(JSON.stringify({ type: 'stdin', data: 'echo before\n' }));
      s.ws.send(bad);
      const [code] = await s.closed;
      expect(code, bad.slice(0, 20)).toBe(1008);
    }
    const actions = await controlActions(id, 'owner');
    expect(actions).toHaveLength(3);
    expect(actions.every((a) => a.ended_at !== null && a.commands?.[0] === 'echo before')).toBe(true);
  });

  it('leaves other upgrade requests to the routes, as plain requests', async () => {
    const r = await refusal('/v1/agents', { key: fx.keys.owner });
    expect(r.status).toBe(200);
    expect(await refusal('/v1/nowhere', { key: fx.keys.owner })).toMatchObject({ status: 404 });
  });

  // Last: it stops this file's API.
  it('closes open sessions with 1001 when the API stops, and records them first', async () => {
    const id = await fx.createAgent('shutdown');
    await runningPod('shutdown');
    const s = await session(shellPath(id), { key: fx.keys.owner });
    s.ws.send(JSON.stringify({ type: 'stdin', data: 'echo still here\n' }));
    await eventually(() => (s.frames.length > 0 ? true : undefined), 'the echo');
    const stopped = fx.api.stop();
    expect(await s.closed).toEqual([1001, 'the API is shutting down']);
    await stopped;
    const entries = await fx.api.deps.audit.query({ action: 'agent.console.shell', resource: id, limit: 10 });
    expect(entries[0]?.details).toMatchObject({
      phase: 'ended',
      close_code: 1001,
      commands: ['echo still here'],
    });
  });
});
