// What `platform run proxy` calls to start the MCP gateway as its second
// listener: the MCP_GATEWAY_* settings read from the environment (a bad value
// is a ConfigError, like the proxy's own), nothing started when
// MCP_GATEWAY_ENABLED is false. The seams are the credential proxy's.
import type { Logger } from '../../base/log.ts';
import type { AccessSink, ApprovalGate, EgressAccess, McpServerRef } from '../../contract/egress.ts';
import { loadMcpGatewaySettings } from './config.ts';
import { startMcpGateway, type McpGateway } from './server.ts';

export interface McpGatewaySeams {
  /** The egress bundle's `mcp_servers`, as last read. */
  servers: () => readonly McpServerRef[];
  access: EgressAccess;
  approvals: ApprovalGate;
  sink: AccessSink;
  log: Logger;
}

export async function startMcpGatewayFromEnv(
  env: NodeJS.ProcessEnv,
  seams: McpGatewaySeams,
  host = '::',
): Promise<McpGateway | undefined> {
  const settings = loadMcpGatewaySettings(env);
  if (!settings.enabled) {
    seams.log.info({}, 'MCP_GATEWAY_ENABLED is false: no MCP gateway');
    return undefined;
  }
  return startMcpGateway({ ...seams, host, port: settings.port, settings });
}
