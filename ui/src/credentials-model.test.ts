import { describe, expect, it } from 'vitest';
import {
  authWords,
  canWriteTier,
  connectBody,
  connectProblems,
  fieldOfError,
  oauthMessage,
  oauthSession,
  oauthWords,
  parseHosts,
  placeWords,
  rulingWords,
  tierParams,
  tierQuery,
  toolRows,
  withheldWords,
  type ConnectDraft,
  type ToolView,
} from './credentials-model.ts';

const ws = { scope: 'workspace', namespace: 'team-a', workspace: 'research' } as const;
const draft = (d: Partial<ConnectDraft> = {}): ConnectDraft => ({
  service: 'jira',
  sharing_mode: 'inherit',
  destinations: '',
  material: 's3cret-canary',
  ...d,
});

describe('tiers', () => {
  it('name the org and workspace tiers as the API does, and an agent by its id', () => {
    expect(tierParams({ scope: 'org', organization: 'acme' })).toEqual({ scope: 'org', scope_id: 'acme' });
    expect(tierParams(ws)).toEqual({ scope: 'workspace', scope_id: 'team-a.research' });
    expect(tierParams({ scope: 'agent', agent_id: 'a.b' })).toBeUndefined();
    expect(tierQuery(ws)).toBe('scope=workspace&scope_id=team-a.research');
    expect(tierQuery({ scope: 'agent', agent_id: 'team-a.bot' })).toBe('agent_id=team-a.bot');
    expect(placeWords('workspace', 'team-a.research')).toBe('workspace team-a/research');
    expect(placeWords('org', 'acme')).toBe('organization acme');
  });

  it('say what an auth status and a withheld reason mean', () => {
    expect(authWords('connected')).toBe('Connected');
    expect(authWords('pending')).toBe('Waiting for its secret');
    expect(authWords(null)).toBe('No credential applies');
    expect(authWords('something-new')).toBe('something-new');
    expect(withheldWords('enforced_above')).toMatch(/organization enforces/);
    expect(withheldWords('overridden')).toMatch(/workspace holds its own/);
  });
});

describe('the connect form', () => {
  it('accepts a complete draft and sends the API its body (lower-cased, deduplicated hosts)', () => {
    const d = draft({
      destinations: 'Jira.example.com, jira.example.com api.example.com',
      service: ' jira ',
    });
    expect(connectProblems(d)).toEqual({});
    expect(connectBody(ws, d, true)).toEqual({
      scope: 'workspace',
      scope_id: 'team-a.research',
      service: 'jira',
      sharing_mode: 'inherit',
      destinations: ['jira.example.com', 'api.example.com'],
      type: 'api_key',
      material: 's3cret-canary',
    });
    expect(connectBody(ws, d, false)).not.toHaveProperty('material');
    expect(connectBody(ws, draft(), false)).not.toHaveProperty('destinations');
    expect(parseHosts(' a.com,,b.com\nA.com ')).toEqual(['a.com', 'b.com']);
  });

  it('says per field what is missing or malformed, and never quotes the key', () => {
    const p = connectProblems(draft({ service: '', material: '', destinations: 'ok.com bad_host' }));
    expect(p).toEqual({
      service: 'Enter the service, for example github or jira.',
      destinations: 'Not a host name: bad_host.',
      material: 'Enter the API key.',
    });
    expect(connectProblems(draft({ service: '-x' })).service).toMatch(/^Letters, digits/);
    expect(connectProblems(draft({ material: '' }), false)).toEqual({});
    const long = connectProblems(draft({ material: 'k'.repeat(16385) })).material ?? '';
    expect(long).toBe('The key is longer than 16,384 characters.');
    expect(JSON.stringify(connectProblems(draft({ service: '' })))).not.toContain('s3cret-canary');
  });

  it('places a refusal beside the field it concerns', () => {
    expect(fieldOfError('credential_enforced', 'organization acme enforces')).toBe('service');
    expect(fieldOfError('credential_exists', 'already holds')).toBe('service');
    expect(fieldOfError('material_required', 'x')).toBe('material');
    expect(fieldOfError('invalid_body', 'body/destinations/0 must match pattern')).toBe('destinations');
    expect(fieldOfError(undefined, 'the keyring is unavailable')).toBeUndefined();
  });
});

describe('tool rows', () => {
  const install = (tool: string, enforcement: ToolView['enforcement']): ToolView => ({
    id: `ns.tool-${tool}`,
    scope: 'workspace',
    scope_id: 'ns.ws',
    tool,
    enforcement,
  });
  it('list every catalog app with this tier’s ruling, ruled first, and keep a ruling on an unknown app', () => {
    const apps = [
      { app_id: 'wiki', name: 'Wiki', category: 'MCP Servers' },
      { app_id: 'shell', name: 'Shell', category: 'MCP Servers' },
      { app_id: 'alpha', name: 'Alpha', category: 'Skills' },
    ];
    const rows = toolRows(apps, [install('shell', 'blocked'), install('gone', 'required')]);
    expect(rows.map((r) => [r.app_id, r.install?.enforcement ?? 'unset'])).toEqual([
      ['gone', 'required'],
      ['shell', 'blocked'],
      ['alpha', 'unset'],
      ['wiki', 'unset'],
    ]);
    expect(rows[0]!.category).toBe('Not in the catalog');
  });

  it('say where an agent’s ruling comes from, with both tiers when both rule', () => {
    const base = { tool: 't', auth_status: null, scope: 'workspace', scope_id: 'ns.ws' } as const;
    expect(rulingWords({ ...base, state: 'blocked', tiers: { workspace: 'blocked' } })).toBe(
      'from the workspace ns/ws',
    );
    expect(
      rulingWords({ ...base, state: 'blocked', tiers: { org: 'available', workspace: 'blocked' } }),
    ).toBe('from the workspace ns/ws (organization: available, workspace: blocked)');
  });
});

describe('the OAuth popup', () => {
  it('takes only our message for the state we started', () => {
    const ok = { type: 'platform-oauth', state: 's1', status: 'connected', credential_id: 'ns.cred-x' };
    expect(oauthMessage(ok, 's1')).toEqual({ status: 'connected', credential_id: 'ns.cred-x' });
    expect(oauthMessage(ok, 's2')).toBeUndefined();
    expect(oauthMessage({ ...ok, type: 'other' }, 's1')).toBeUndefined();
    expect(oauthMessage('connected', 's1')).toBeUndefined();
    expect(oauthMessage({ ...ok, status: 'pending' }, 's1')).toBeUndefined();
    expect(
      oauthMessage(
        {
          type: 'platform-oauth',
          state: 's1',
          status: 'error',
          error: { code: 'access_denied', message: 'you declined' },
        },
        's1',
      ),
    ).toEqual({ status: 'error', error: { code: 'access_denied', message: 'you declined' } });
  });

  it('reads a polled session and words each outcome', () => {
    expect(oauthSession({ status: 'pending' })).toEqual({ status: 'pending' });
    expect(oauthSession({ status: 'weird' })).toBeUndefined();
    expect(oauthSession(null)).toBeUndefined();
    const err = oauthSession({ status: 'error' })!;
    expect(oauthWords(err, 'github')).toBe('github was not connected: the provider refused the connection.');
    expect(oauthWords({ status: 'connected' }, 'github')).toBe('Connected to github.');
    expect(oauthWords({ status: 'pending' }, 'github')).toMatch(/^Waiting for github/);
  });
});

describe('read-only tiers', () => {
  it('follow can_write of GET /v1/scopes, and know nothing of a tier it does not list', () => {
    const scopes = {
      organizations: [{ name: 'acme', home_namespace: 'acme-home', can_write: false }],
      workspaces: [
        {
          namespace: 'team-a',
          name: 'research',
          scope_id: 'team-a.research',
          organization: 'acme',
          can_write: true,
        },
      ],
    };
    expect(canWriteTier(scopes, { scope: 'org', organization: 'acme' })).toBe(false);
    expect(canWriteTier(scopes, ws)).toBe(true);
    expect(canWriteTier(scopes, { scope: 'org', organization: 'other' })).toBeUndefined();
    expect(canWriteTier(undefined, ws)).toBeUndefined();
  });
});
