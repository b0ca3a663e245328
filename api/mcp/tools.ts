// The Verifier's MCP tools (SPEC "Auditor and model registry, settings").
import { AUDITOR_POLICY_TOOL } from './policy-tool.ts';
import type { AuditorSettingsStore } from './settings-store.ts';
import { auditorSettingsTool } from './settings-tool.ts';
import type { McpTool } from './tool.ts';

export const mcpTools = (settings: AuditorSettingsStore): readonly McpTool[] => [
  AUDITOR_POLICY_TOOL,
  auditorSettingsTool(settings),
];
