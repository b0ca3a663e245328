// What an MCP tool is here: a name, a description, the JSON schema of its
// arguments (checked before it runs: a bad argument is a tool error naming
// the field) and what it does for an authenticated caller.
import type { JSONSchema } from '../../crds/kit.ts';
import type { CallerContext } from './call-route.ts';

export interface McpTool {
  name: string;
  description: string;
  inputSchema: JSONSchema & { type: 'object' };
  run(args: unknown, who: CallerContext): Promise<unknown>;
}
