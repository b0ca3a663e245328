// The gateway's tool catalog, pure (decision 169): every MCP server's tools
// under `<server>__<tool>`, each keeping its annotations, and the egress
// action a call of it is. A name is resolved by lookup, never by splitting,
// so a server or tool name holding `__` cannot redirect a call.
import type { EgressAction, McpServerRef } from '../../contract/egress.ts';

export const NAME_SEPARATOR = '__';
/** MCP tool names: 1-128 characters of A-Z a-z 0-9 _ - . (MCP 2025-11-25). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** One tool as its server lists it (only the fields the gateway passes on). */
export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

export interface CatalogEntry {
  exposedName: string;
  server: McpServerRef;
  tool: UpstreamTool;
  action: EgressAction;
}

export interface Catalog {
  entries: ReadonlyMap<string, CatalogEntry>;
  /** Tools left out, each with why (a bad name, a clash). */
  skipped: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a call does. The MCP spec's defaults: a tool is not read-only unless it
 * says so, and a tool that is not read-only is destructive unless it says
 * `destructiveHint: false`. So: readOnlyHint → read; destructiveHint false →
 * write; anything else → delete (both write and delete are high-risk).
 */
export function toolAction(annotations: ToolAnnotations | undefined): EgressAction {
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === false) return 'write';
  return 'delete';
}

/** Server names become a prefix of tool names: characters a tool name may not hold become `_`. */
export const serverPrefix = (name: string): string => name.replace(/[^A-Za-z0-9_.-]/g, '_');

/** The fields of a listed tool the gateway passes on, or undefined when it is not a tool. */
export function readUpstreamTool(value: unknown): UpstreamTool | undefined {
  if (!isObject(value) || typeof value.name !== 'string' || !TOOL_NAME.test(value.name)) return undefined;
  const tool: UpstreamTool = {
    name: value.name,
    inputSchema: isObject(value.inputSchema) ? value.inputSchema : { type: 'object' },
  };
  if (typeof value.title === 'string') tool.title = value.title;
  if (typeof value.description === 'string') tool.description = value.description;
  if (isObject(value.outputSchema)) tool.outputSchema = value.outputSchema;
  if (isObject(value.annotations)) tool.annotations = value.annotations as ToolAnnotations;
  return tool;
}

export interface ServerTools {
  server: McpServerRef;
  tools: readonly UpstreamTool[];
}

/** Every server's tools under their prefixed names; the first of two tools that clash wins. */
export function buildCatalog(lists: readonly ServerTools[]): Catalog {
  const entries = new Map<string, CatalogEntry>();
  const skipped: string[] = [];
  for (const { server, tools } of lists) {
    for (const tool of tools) {
      const exposedName = `${serverPrefix(server.name)}${NAME_SEPARATOR}${tool.name}`;
      if (!TOOL_NAME.test(exposedName)) {
        skipped.push(`${exposedName.slice(0, 140)}: longer than 128 characters`);
      } else if (entries.has(exposedName)) {
        skipped.push(`${exposedName}: the name is taken by another server's tool`);
      } else {
        entries.set(exposedName, { exposedName, server, tool, action: toolAction(tool.annotations) });
      }
    }
  }
  return { entries, skipped };
}

/** A catalog entry as the gateway lists it: the server's tool under its prefixed name. */
export function listedTool(entry: CatalogEntry): Record<string, unknown> {
  return { ...entry.tool, name: entry.exposedName };
}
