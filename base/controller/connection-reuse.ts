// client-node 1.x builds a new https.Agent for every request (config.js
// `applySecurityAuthentication` → `createAgent`), so every API call pays a
// TLS handshake and a fresh SecureContext: in the 1,000-agent benchmark that
// was half the operator's CPU. One keep-alive agent per distinct TLS identity
// (server, CA, client certificate and key, server name) is reused instead; a
// rotated client certificate yields a new key and thus a new agent.
import { createHash } from 'node:crypto';
import type { Agent } from 'node:http';
import type * as k8s from '@kubernetes/client-node';

type CreateAgent = (cluster: k8s.Cluster | null, options: Record<string, unknown>) => Agent;

const text = (v: unknown): string =>
  v === undefined ? '' : Buffer.isBuffer(v) ? v.toString('base64') : String(v);

export function reuseConnections(kc: k8s.KubeConfig): void {
  const target = kc as unknown as { createAgent: CreateAgent };
  const create = target.createAgent.bind(kc);
  const agents = new Map<string, Agent>();
  target.createAgent = (cluster, options) => {
    const identity = [
      cluster?.server,
      cluster?.proxyUrl,
      options.ca,
      options.cert,
      options.key,
      options.pfx,
      options.servername,
      options.rejectUnauthorized,
    ];
    const key = createHash('sha256').update(identity.map(text).join('\u0000')).digest('hex');
    let agent = agents.get(key);
    if (!agent) {
      agent = create(cluster, { ...options, keepAlive: true });
      agents.set(key, agent);
    }
    return agent;
  };
}
