// The credential and tool cascades of the samples on a real node: after
// `kubectl apply -f config/samples`, each sample agent's effective
// credentials and tools are what its organization and workspace say. The
// research workspace's agents get acme's enforced GitHub credential and their
// workspace's Slack bot, must have the GitHub tool and cannot have the shell;
// the standalone release-bot, outside any workspace, inherits nothing.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { agentId, type AgentRef } from './agents.ts';
import { api, eventually, kubectlOk } from './support.ts';

interface EffectiveCredentials {
  items: { service: string; enforced: boolean; credential: { id: string; scope: string } }[];
}
interface EffectiveTools {
  items: { tool: string; state: string; scope: string }[];
}

const WORKSPACE_AGENTS: AgentRef[] = [
  { namespace: 'default', name: 'summarizer' },
  { namespace: 'default', name: 'triager' },
];
const STANDALONE: AgentRef = { namespace: 'default', name: 'release-bot' };

const credentialsOf = (a: AgentRef) =>
  api<EffectiveCredentials>(`/v1/scoped-credentials/effective?agent_id=${agentId(a)}`);
const toolsOf = (a: AgentRef) => api<EffectiveTools>(`/v1/scoped-tools/effective?agent_id=${agentId(a)}`);

beforeAll(() => {
  kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);
});

describe('the sample cascades on a real node', () => {
  it.each(WORKSPACE_AGENTS)(
    "gives $name acme's enforced GitHub credential and the research workspace's Slack bot",
    async (agent) => {
      const r = await eventually(async () => {
        const got = await credentialsOf(agent);
        return got.status === 200 && got.body.items.length === 2 ? got : undefined;
      }, `the effective credentials of ${agent.name}`);
      const byService = Object.fromEntries(r.body.items.map((i) => [i.service, i]));
      expect(byService.github).toMatchObject({
        enforced: true,
        credential: { id: 'platform-org-acme.github-app', scope: 'org' },
      });
      expect(byService.slack).toMatchObject({
        enforced: false,
        credential: { id: 'default.slack-bot', scope: 'workspace' },
      });
    },
  );

  it.each(WORKSPACE_AGENTS)('requires the GitHub tool of $name and blocks its shell', async (agent) => {
    const r = await eventually(async () => {
      const got = await toolsOf(agent);
      return got.status === 200 && got.body.items.length === 2 ? got : undefined;
    }, `the effective tools of ${agent.name}`);
    expect(r.body.items).toEqual([
      expect.objectContaining({ tool: 'github-mcp', state: 'required', scope: 'org' }),
      expect.objectContaining({ tool: 'shell-mcp', state: 'blocked', scope: 'workspace' }),
    ]);
    const install = await api<{ code?: string }>(`/v1/app-catalog/agents/${agentId(agent)}/install`, {
      method: 'POST',
      body: JSON.stringify({ app_id: 'shell-mcp' }),
    });
    expect(install).toMatchObject({ status: 403, body: { code: 'tool_blocked' } });
  });

  it('leaves the standalone release-bot, outside any workspace, with nothing inherited', async () => {
    const [credentials, tools] = await Promise.all([credentialsOf(STANDALONE), toolsOf(STANDALONE)]);
    expect(credentials).toMatchObject({ status: 200, body: { items: [] } });
    expect(tools).toMatchObject({ status: 200, body: { items: [] } });
  });
});
