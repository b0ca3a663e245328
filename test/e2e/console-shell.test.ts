// The console shell on the real node (issue 20): an Owner of the `summarizer`
// sample agent opens `GET /v1/agents/default.summarizer/console/shell` as a
// WebSocket, runs `echo` and reads `/etc/hostname` (shell builtins) in the agent's own container through
// Kubernetes exec and reads their output; the session, with its commands,
// appears in the passport's control actions. An Editor is refused (403) and
// the refusal is recorded there too.
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ControlAction } from '../../api/shell/control-actions.ts';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { verifierUrl } from '../../hack/system/roles.ts';
import { agentId, waitAgentReady, type AgentRef } from './agents.ts';
import { eventually, kubectlOk, topology, userKey } from './support.ts';

const SUMMARIZER: AgentRef = { namespace: 'default', name: 'summarizer' };
// config/samples/workspace-multi-agent.yaml: alice is the workspace's Owner, bob the summarizer's Editor.
const OWNER = 'alice@example.com';
const EDITOR = 'bob@example.com';
const MARK = `shell-e2e-${Date.now().toString(36)}`;

const shellUrl = (): string =>
  `${verifierUrl(topology()).replace(/^http/, 'ws')}/v1/agents/${agentId(SUMMARIZER)}/console/shell`;

type Outcome =
  | { refused: true; status: number; body: { code?: string } }
  | { refused: false; ws: WebSocket; frames: Record<string, unknown>[]; closed: Promise<number> };

function openShell(key: string): Promise<Outcome> {
  const ws = new WebSocket(shellUrl(), ['platform.console.v1'], {
    headers: { authorization: `Bearer ${key}` },
  });
  return new Promise((resolve, reject) => {
    const frames: Record<string, unknown>[] = [];
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
    ws.on('open', () => resolve({ refused: false, ws, frames, closed }));
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

async function controlActions(key: string): Promise<ControlAction[]> {
  const res = await fetch(`${verifierUrl(topology())}/v1/agents/${agentId(SUMMARIZER)}/passport`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { control_actions: ControlAction[] }).control_actions;
}

let ownerKey = '';
let editorKey = '';

beforeAll(async () => {
  kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);
  await waitAgentReady(SUMMARIZER);
  [ownerKey, editorKey] = [await userKey(OWNER), await userKey(EDITOR)];
}, 300_000);

describe('the console shell in a running agent pod', () => {
  it("runs an Owner's commands in the agent container and records the session in the passport", async () => {
    const opened = await openShell(ownerKey);
    if (opened.refused)
      throw new Error(`the Owner was refused: ${opened.status} ${JSON.stringify(opened.body)}`);
    expect(opened.ws.protocol).toBe('platform.console.v1');
    // The pod's hostname is its name: the command ran in the agent's own pod. Shell builtins only: the
    // agent image has /bin/sh but no coreutils.
    for (const line of [`echo ${MARK}\n`, 'read h < /etc/hostname && echo "host=$h"\n', 'exit 0\n'])
      opened.ws.send(JSON.stringify({ type: 'stdin', data: line }));
    expect(await opened.closed).toBe(1000);
    const stdout = opened.frames
      .filter((f) => f.type === 'stdout')
      .map((f) => String(f.data))
      .join('');
    const lines = stdout.split('\n').map((l) => l.trim());
    expect(lines).toContain(MARK);
    expect(lines).toContain('host=agent-summarizer');
    expect(opened.frames.at(-1)).toEqual({ type: 'exit', code: 0 });
    const session = await eventually(async () => {
      const actions = await controlActions(ownerKey);
      return actions.find((a) => a.commands?.includes(`echo ${MARK}`));
    }, 'the session in the passport');
    expect(session).toMatchObject({ subject: OWNER, outcome: 'allowed', exit_code: 0, commands_count: 3 });
    expect(session.ended_at).not.toBeNull();
  });

  it('refuses an Editor with 403 and records the attempt', async () => {
    const opened = await openShell(editorKey);
    if (!opened.refused) {
      opened.ws.close();
      throw new Error('the Editor got a shell');
    }
    expect(opened).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const actions = await controlActions(ownerKey);
    expect(actions.some((a) => a.subject === EDITOR && a.outcome === 'denied' && a.status === 403)).toBe(
      true,
    );
  });
});
