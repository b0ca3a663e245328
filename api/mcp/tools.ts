// The Verifier's MCP tools (SPEC "Auditor and model registry, settings").
import { AUDITOR_POLICY_TOOL } from './policy-tool.ts';
import { AUDITOR_SETTINGS_TOOL } from './settings-tool.ts';
import type { McpTool } from './tool.ts';

export const MCP_TOOLS: readonly McpTool[] = [AUDITOR_POLICY_TOOL, AUDITOR_SETTINGS_TOOL];
