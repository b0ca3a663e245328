import { describe, expect, it } from 'vitest';
import { buildCatalog, listedTool, readUpstreamTool, toolAction, type ToolAnnotations } from './catalog.ts';

const server = (name: string) => ({ name, url: `https://${name}.example.com/mcp` });
const tool = (name: string, annotations?: Record<string, unknown>) => ({
  name,
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});

describe('the action of a tool call', () => {
  it('is read for a read-only tool, whatever else it says', () => {
    expect(toolAction({ readOnlyHint: true, destructiveHint: true })).toBe('read');
  });
  it('is write for a tool that says it is not destructive', () => {
    expect(toolAction({ readOnlyHint: false, destructiveHint: false })).toBe('write');
  });
  it('is delete for a destructive tool and, by the MCP defaults, for one that says nothing', () => {
    expect(toolAction({ destructiveHint: true })).toBe('delete');
    expect(toolAction(undefined)).toBe('delete');
    expect(toolAction(JSON.parse('{"readOnlyHint":"yes"}') as ToolAnnotations)).toBe('delete');
  });
});

describe('the catalog', () => {
  it('names each tool <server>__<tool> and keeps its annotations', () => {
    const c = buildCatalog([
      { server: server('files'), tools: [tool('read', { readOnlyHint: true })] },
      { server: server('mail'), tools: [tool('read')] },
    ]);
    expect([...c.entries.keys()]).toEqual(['files__read', 'mail__read']);
    const files = c.entries.get('files__read');
    expect(files && listedTool(files)).toEqual({
      name: 'files__read',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });
    expect(c.entries.get('mail__read')?.action).toBe('delete');
  });

  it('keeps the first of two tools whose names clash, and says why the other is left out', () => {
    const c = buildCatalog([
      { server: server('a__b'), tools: [tool('c')] },
      { server: server('a'), tools: [tool('b__c')] },
    ]);
    expect(c.entries.get('a__b__c')?.server.name).toBe('a__b');
    expect(c.skipped).toEqual(["a__b__c: the name is taken by another server's tool"]);
  });

  it('replaces characters a tool name may not hold in a server name, and leaves out names over 128 characters', () => {
    const c = buildCatalog([
      { server: server('acme/crm app'), tools: [tool('find'), tool('x'.repeat(125))] },
    ]);
    expect([...c.entries.keys()]).toEqual(['acme_crm_app__find']);
    expect(c.skipped).toHaveLength(1);
  });

  it('reads only what is a tool from a server’s list', () => {
    expect(readUpstreamTool({ name: 'bad name' })).toBeUndefined();
    expect(readUpstreamTool('tool')).toBeUndefined();
    expect(readUpstreamTool({ name: 'ok', extra: 1, annotations: [] })).toEqual({
      name: 'ok',
      inputSchema: { type: 'object' },
    });
  });
});
