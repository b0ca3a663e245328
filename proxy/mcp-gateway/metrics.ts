// The MCP gateway's Prometheus metrics, on its own /metrics.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ServerStatus } from './discovery.ts';

export interface GatewayMetrics {
  requests: Counter<'method' | 'outcome'>;
  discoveries: Counter<'server' | 'result'>;
  /** Called at scrape time: one sample per server the bundle names. */
  track(status: () => ServerStatus[]): void;
}

export function gatewayMetrics(registry: Registry): GatewayMetrics {
  const requests = new Counter({
    name: 'platform_mcp_gateway_requests_total',
    help: 'JSON-RPC requests to the MCP gateway, by method and outcome (ok, error)',
    labelNames: ['method', 'outcome'],
    registers: [registry],
  });
  const discoveries = new Counter({
    name: 'platform_mcp_gateway_discoveries_total',
    help: 'Tool discoveries of an MCP server, by result (ok, error)',
    labelNames: ['server', 'result'],
    registers: [registry],
  });
  let status: () => ServerStatus[] = () => [];
  new Gauge({
    name: 'platform_mcp_gateway_server_up',
    help: '1 when the last discovery of the MCP server succeeded, else 0',
    labelNames: ['server'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of status()) this.set({ server: s.name }, s.error ? 0 : 1);
    },
  });
  new Gauge({
    name: 'platform_mcp_gateway_tools',
    help: 'Tools of the MCP server the gateway lists',
    labelNames: ['server'],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of status()) this.set({ server: s.name }, s.tools);
    },
  });
  return {
    requests,
    discoveries,
    track: (fn) => {
      status = fn;
    },
  };
}
