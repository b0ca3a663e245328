// The API's settings: the defaults load, and every cross-setting rule is reported together.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../base/config.ts';
import { loadApiSettings } from './settings.ts';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadApiSettings(env, {});
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('loadApiSettings', () => {
  it('loads the defaults without a problem', () => {
    expect(problemsOf({})).toEqual([]);
  });

  it('serves MCP by default at /mcp and /.well-known/mcp, 10 calls at once', () => {
    const s = loadApiSettings({}, {});
    expect([s.mcpEnabled, s.mcpToolsPath, s.mcpMetadataPath, s.mcpMaxConcurrentCalls]).toEqual([
      true,
      '/mcp',
      '/.well-known/mcp',
      10,
    ]);
    expect(problemsOf({ MCP_MAX_CONCURRENT_CALLS: '0', MCP_TOOLS_PATH: 'mcp' })).toEqual([
      'MCP_MAX_CONCURRENT_CALLS: expected at least 1',
      'MCP_TOOLS_PATH and MCP_METADATA_PATH: expected absolute URL paths',
    ]);
  });

  it('lists every broken rule at once, in order', () => {
    const problems = problemsOf({
      PLATFORM_API_BODY_LIMIT: '512',
      PLATFORM_API_AUDIT_WINDOW: '10',
      PLATFORM_EVIDENCE_MAX_SKEW: '0s',
      PLATFORM_API_WORKSPACE_ADMINS: 'Team=alice',
      PLATFORM_INFORMER_RELIST_INTERVAL: '10m',
      PLATFORM_INFORMER_STALE_AFTER: '10m',
    });
    expect(problems.map((p) => p.split(/[: ]/)[0])).toEqual([
      'PLATFORM_API_BODY_LIMIT',
      'PLATFORM_EVIDENCE_MAX_BYTES',
      'PLATFORM_API_AUDIT_WINDOW',
      'PLATFORM_EVIDENCE_MAX_SKEW',
      'PLATFORM_API_WORKSPACE_ADMINS',
      'PLATFORM_INFORMER_STALE_AFTER',
    ]);
  });
});
