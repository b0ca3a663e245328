// Metrics of the MCP endpoint: tool calls by tool and outcome, and their duration.
import { Counter, Histogram, type Registry } from 'prom-client';

export type ToolOutcome = 'ok' | 'error' | 'refused';

export class McpMetrics {
  private readonly calls: Counter<'tool' | 'outcome'>;
  private readonly duration: Histogram<'tool'>;
  readonly overCap: Counter;

  constructor(registry: Registry) {
    this.calls = new Counter({
      name: 'platform_mcp_tool_calls_total',
      help: 'MCP tool calls by tool and outcome (refused: 401/403 of the policy table)',
      labelNames: ['tool', 'outcome'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'platform_mcp_tool_call_duration_seconds',
      help: 'MCP tool call duration',
      labelNames: ['tool'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    this.overCap = new Counter({
      name: 'platform_mcp_calls_over_cap_total',
      help: 'MCP requests refused with 429 over MCP_MAX_CONCURRENT_CALLS',
      registers: [registry],
    });
  }

  observe(tool: string, outcome: ToolOutcome, ms: number): void {
    this.calls.inc({ tool, outcome });
    this.duration.observe({ tool }, ms / 1000);
  }
}
