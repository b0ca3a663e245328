// The Access Manifest's network domain in a running agent pod: a workspace
// denies a host, and the agent's own request to it, redirected to its
// credential proxy, is refused there; lifted, the request is routed again.
// The agent is the `summarizer` sample of the `research` workspace; the host
// is another agent pod (release-bot's gateway health endpoint), which the
// proxy otherwise reaches (the host's own address is a model address here,
// refused by the proxy's model guard whatever the manifest says).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { podName, waitAgentReady, type AgentRef } from './agents.ts';
import { eventually, kubectlOk } from './support.ts';

const SUMMARIZER: AgentRef = { namespace: 'default', name: 'summarizer' };
const RELEASE_BOT: AgentRef = { namespace: 'default', name: 'release-bot' };
const REFUSAL = "outside the agent's Access Manifest";
let target: URL;

/** `<status> <body>` of a GET from inside the agent container (its runtime is node; no curl there). */
function getFromAgent(): string {
  const script = `fetch(${JSON.stringify(target.href)}).then(async (r) => console.log(r.status, await r.text()), (e) => console.log('error', e.cause?.code ?? e.message))`;
  return kubectlOk(['-n', 'default', 'exec', podName(SUMMARIZER), '-c', 'agent', '--', 'node', '-e', script]);
}

const setNetwork = (network: object | null): void => {
  const patch = { spec: { accessManifest: network ? { network } : null } };
  kubectlOk([
    '-n',
    'default',
    'patch',
    'platformworkspace',
    'research',
    '--type',
    'merge',
    '-p',
    JSON.stringify(patch),
  ]);
};

beforeAll(() => {
  kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);
});

afterAll(() => {
  setNetwork(null);
});

describe("the Access Manifest's network domain on a real node", () => {
  it("refuses at the agent's credential proxy a host its workspace denies, and routes it again once lifted", async () => {
    await waitAgentReady(SUMMARIZER);
    target = new URL(`http://${(await waitAgentReady(RELEASE_BOT)).status?.podIP}:8099/healthz`);
    const before = await eventually(() => {
      const said = getFromAgent();
      return said.startsWith('error') ? undefined : said;
    }, 'an answer through the proxy');
    expect(before).toMatch(/^200 /);

    setNetwork({ deniedHosts: [target.hostname] });
    // The proxy reads the manifest again within PLATFORM_PROXY_MANIFEST_REFRESH (30 s).
    const refused = await eventually(() => {
      const said = getFromAgent();
      return said.includes(REFUSAL) ? said : undefined;
    }, 'the proxy refusing the denied host');
    expect(refused).toMatch(/^403 /);
    expect(refused).toContain(target.hostname);

    setNetwork(null);
    const after = await eventually(() => {
      const said = getFromAgent();
      return said.includes(REFUSAL) ? undefined : said;
    }, 'the proxy routing the host again');
    expect(after).toBe(before);
  });
});
