// Workload identity on a real node: a sample agent's platform sidecars hold
// its SVIDs (signed with the key the Verifier's trust bundle publishes) and
// the gateway obtains a client_credentials token with them, while the agent
// container has neither: no such file, no such variable.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyJwtSvid } from '../../base/identity/jwt-svid.ts';
import { k8s } from '../../base/kube.ts';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { verifierUrl } from '../../hack/system/roles.ts';
import { agentId, condition, readAgent, waitAgentReady, type AgentRef } from './agents.ts';
import { api, eventually, kubeConfig, kubectl, kubectlOk, topology } from './support.ts';

const RELEASE_BOT: AgentRef = { namespace: 'default', name: 'release-bot' };
type Pod = k8s.V1Pod;

const containers = (pod: Pod): k8s.V1Container[] => [
  ...(pod.spec?.initContainers ?? []),
  ...(pod.spec?.containers ?? []),
];

/** A metric's value from a gateway's /metrics (the host reaches pod IPs on the bridge). */
async function gatewayMetric(pod: Pod, name: string): Promise<number | undefined> {
  const text = await fetch(`http://${pod.status?.podIP}:8099/metrics`).then((r) => r.text());
  // `name value` or `name{labels} value` (the registry adds default labels).
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.trim().split(' ').at(-1)) : undefined;
}

beforeAll(() => {
  kubectlOk(['apply', '-f', join(REPO_ROOT, 'config', 'samples')]);
});

describe('workload identity on a real node', () => {
  it('gives the gateway and the credential proxy the SVIDs, signed with the published trust-domain key', async () => {
    const pod = await waitAgentReady(RELEASE_BOT);
    const secretName = pod.metadata?.annotations?.['platform.computing/svid-secret'];
    expect(secretName).toBe('agent-release-bot-svid');
    const mounted = containers(pod)
      .filter((c) => (c.volumeMounts ?? []).some((m) => m.name === 'platform-svid'))
      .map((c) => c.name)
      .sort();
    expect(mounted).toEqual(['platform-credential-proxy', 'platform-gateway']);
    const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
    const secret = await eventually(
      () => core.readNamespacedSecret({ namespace: 'default', name: secretName! }).catch(() => undefined),
      'the SVID Secret',
    );
    const bundle = await api<{ trust_domain: string; jwt_authorities: { keys: object[] } }>(
      '/v1/trust-bundle',
    );
    expect(bundle.status).toBe(200);
    const verified = await verifyJwtSvid(Buffer.from(secret.data?.['svid.jwt'] ?? '', 'base64').toString(), {
      bundle: bundle.body.jwt_authorities as never,
      audience: verifierUrl(topology()),
      trustDomain: bundle.body.trust_domain,
    });
    expect(verified).toMatchObject({
      ok: true,
      spiffeId: `spiffe://${bundle.body.trust_domain}/agent/${agentId(RELEASE_BOT)}`,
    });
  });

  it('lets the gateway obtain a client_credentials token with its SVID', async () => {
    const pod = await waitAgentReady(RELEASE_BOT);
    const expiry = await eventually(async () => {
      const v = await gatewayMetric(pod, 'platform_gateway_identity_token_expiry_seconds');
      return v && v > Date.now() / 1000 ? v : undefined;
    }, 'a token held by the gateway').catch((err: unknown) => {
      const logs = kubectl(['-n', 'default', 'logs', 'agent-release-bot', '-c', 'platform-gateway']).stdout;
      const said = logs
        .split('\n')
        .filter((l) => /token|identity/.test(l))
        .slice(-5)
        .join('\n');
      throw new Error(`${String(err)}; the gateway said:\n${said}`);
    });
    expect(expiry).toBeGreaterThan(Date.now() / 1000);
    // The operator asked the same endpoint with the same client: CredentialsReady says it got a token.
    const agent = await eventually(async () => {
      const a = await readAgent(RELEASE_BOT);
      return condition(a, 'CredentialsReady')?.status === 'True' ? a : undefined;
    }, 'CredentialsReady');
    expect(condition(agent, 'CredentialsReady')?.reason).toBe('TokenObtained');
  });

  it('leaves the agent container without the SVID or the token: no file, no variable', async () => {
    const pod = await waitAgentReady(RELEASE_BOT);
    const agent = containers(pod).find((c) => c.name === 'agent')!;
    expect(agent.volumeMounts ?? []).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'platform-svid' })]),
    );
    // Asked from inside the agent container with its own runtime (the image has node, no coreutils).
    const probe = (script: string): string =>
      kubectlOk(['-n', 'default', 'exec', 'agent-release-bot', '-c', 'agent', '--', 'node', '-e', script]);
    expect(probe("console.log(require('fs').existsSync('/var/run/platform/svid'))").trim()).toBe('false');
    const env = probe('console.log(JSON.stringify(process.env))');
    expect(env).not.toMatch(/SVID|eyJ[A-Za-z0-9_-]{10,}\./);
  });
});
