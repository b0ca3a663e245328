// One MCP server per request (stateless Streamable HTTP) whose tools run for
// the request's authenticated caller. A refusal or bad argument is a tool
// result with `isError` and `{detail, code}` as its text, never a protocol
// failure or a 500; an unexpected failure is logged and reported without
// its message (it may name internals).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../base/log.ts';
import { toHttpError } from '../http/errors.ts';
import type { CallerContext } from './call-route.ts';
import type { McpMetrics, ToolOutcome } from './metrics.ts';
import type { McpTool } from './tool.ts';

export interface ToolServerOptions {
  tools: readonly McpTool[];
  metrics: McpMetrics;
  log: Logger;
  version: string;
}

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value ?? null) }],
  ...(isError ? { isError: true } : {}),
});

async function runTool(
  tool: McpTool | undefined,
  args: unknown,
  who: CallerContext,
  o: ToolServerOptions,
): Promise<{ result: CallToolResult; outcome: ToolOutcome }> {
  if (!tool) {
    const names = o.tools.map((t) => t.name).join(', ');
    return {
      result: text({ detail: `unknown tool; tools: ${names}`, code: 'unknown_tool' }, true),
      outcome: 'error',
    };
  }
  try {
    return { result: text(await tool.run(args, who)), outcome: 'ok' };
  } catch (err) {
    const http = toHttpError(err);
    if (http) {
      const outcome = http.status === 401 || http.status === 403 ? 'refused' : 'error';
      return { result: text({ detail: http.detail, code: http.code, status: http.status }, true), outcome };
    }
    o.log.error({ err, tool: tool.name, requestId: who.requestId }, 'mcp tool failed');
    return {
      result: text({ detail: 'the tool failed; see the server log', code: 'internal' }, true),
      outcome: 'error',
    };
  }
}

export function toolServer(who: CallerContext, o: ToolServerOptions): Server {
  const server = new Server(
    { name: 'platform-verifier', version: o.version },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: o.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const started = process.hrtime.bigint();
    const tool = o.tools.find((t) => t.name === request.params.name);
    const { result, outcome } = await runTool(tool, request.params.arguments, who, o);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    o.metrics.observe(tool?.name ?? 'unknown', outcome, ms);
    o.log.info(
      { requestId: who.requestId, subject: who.principal.subject, tool: tool?.name, outcome, ms },
      'mcp tool call',
    );
    return result;
  });
  return server;
}
