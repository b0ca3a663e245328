// The definition editor's server side against the real apiserver:
// POST /v1/definitions/validate (each kind of error at its line and column,
// in `platform apply`'s words) and POST /v1/definitions/apply (server-side
// apply as field manager platform-ui: created, idempotent, configured; who
// may; a lowered audit mode; a field another manager owns; 413; 422).
import { describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { SUBJECTS, useApi, type Persona, type Reply } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';

const ns = useNamespace('api-definitions');
const fx = useApi(ns);
const custom = (): k8s.CustomObjectsApi => kubeConfig().makeApiClient(k8s.CustomObjectsApi);

const agentFile = (name: string, extra = ''): string => `# An agent the editor applies.
apiVersion: platform.io/v1alpha1
kind: PlatformAgent
metadata:
  name: ${name}   # its name
spec:
  owners:
    - subject: ${SUBJECTS.owner}
      role: Owner
  model:
    id: gpt-4o-mini
${extra}x-notes:
  kept: true
`;

const post = (who: Persona, what: 'validate' | 'apply', body: unknown): Promise<Reply> =>
  fx.call('POST', `/v1/definitions/${what}`, { key: fx.keys[who], body });
const postText = (
  who: Persona,
  what: 'validate' | 'apply',
  text: string | Buffer,
  query = '',
): Promise<Reply> =>
  fx.call('POST', `/v1/definitions/${what}${query}`, {
    key: fx.keys[who],
    raw: text,
    headers: { 'content-type': 'text/yaml' },
  });

interface Err {
  line: number;
  column: number;
  path: string;
  message: string;
  text: string;
}
const errorsOf = (r: Reply): Err[] => r.body.errors as Err[];

const readAgent = (name: string) =>
  custom().getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURAL.agent,
    namespace: ns.name,
    name,
  });

describe('POST /v1/definitions/validate', () => {
  it('answers valid with the resources a good file stands for, in the namespace given', async () => {
    const r = await post('viewer', 'validate', { text: agentFile('good'), namespace: ns.name });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      valid: true,
      errors: [],
      resources: [{ kind: 'PlatformAgent', namespace: ns.name, name: 'good' }],
    });
  });

  it('takes the file as text/yaml, the namespace and file name in the query', async () => {
    const r = await postText(
      'viewer',
      'validate',
      agentFile('Bad_Name'),
      `?namespace=${ns.name}&file=bot.yaml`,
    );
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    expect(errorsOf(r)[0]).toMatchObject({
      line: 5,
      column: 9,
      path: 'metadata.name',
      message: 'invalid name',
    });
    expect(errorsOf(r)[0]!.text).toMatch(/^bot\.yaml:5:9: metadata\.name: invalid name \(expected/);
  });

  it('locates each kind of error at its line and column', async () => {
    const cases: [string, Partial<Err>][] = [
      ['apiVersion: platform.io/v1alpha1\nkind: PlatformAgent\nmetadata:\n  name: a: b\n', { line: 4 }],
      [
        'apiVersion: platform.io/v1alpha1\nkind: Deployment\nmetadata:\n  name: x\n',
        { line: 2, column: 7, path: 'kind' },
      ],
      [
        agentFile('a').replace('spec:\n', 'spec:\n  colour: blue\n'),
        { line: 7, column: 3, path: 'spec.colour', message: 'unknown field' },
      ],
      [
        agentFile('a').replace('    id: gpt-4o-mini', '    id: 42'),
        { line: 11, column: 9, path: 'spec.model.id', message: 'wrong type' },
      ],
      [
        agentFile('a', '  auditorSettings:\n    nosuch:\n      threshold: {value: 1}\n'),
        { line: 13, column: 5, path: 'spec.auditorSettings.nosuch' },
      ],
    ];
    for (const [text, want] of cases) {
      const r = await post('viewer', 'validate', { text });
      expect(r.status, text).toBe(200);
      expect(r.body.valid, text).toBe(false);
      expect(errorsOf(r)[0], text).toMatchObject(want);
      expect(errorsOf(r)[0]!.text, text).toMatch(/^definition\.yaml:\d+:\d+: /);
    }
    const broken = await post('viewer', 'validate', { text: cases[0]![0] });
    expect(errorsOf(broken)[0]!.message).toMatch(/^malformed YAML/);
  });

  it('refuses a body that is not text (422), too large (413), of another type (415), or no credential (401)', async () => {
    expect((await postText('viewer', 'validate', Buffer.from([0xff, 0xfe, 0x00, 0x41]))).status).toBe(422);
    const nul = await post('viewer', 'validate', { text: 'kind: \u0000' });
    expect(nul.status).toBe(422);
    expect(nul.body.code).toBe('control_characters');
    const big = await postText('viewer', 'validate', `# ${'x'.repeat(300 * 1024)}\n`);
    expect(big.status).toBe(413);
    const other = await fx.call('POST', '/v1/definitions/validate', {
      key: fx.keys.viewer,
      raw: 'kind: x',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(other.status).toBe(415);
    expect((await fx.call('POST', '/v1/definitions/validate', { body: { text: 'a: 1' } })).status).toBe(401);
  });
});

describe('POST /v1/definitions/apply', () => {
  it('creates the agent as field manager platform-ui, then re-applies idempotently and configures a change', async () => {
    const text = agentFile('applied');
    const first = await post('workspace_admin', 'apply', { text, namespace: ns.name });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.results).toEqual([
      { kind: 'PlatformAgent', namespace: ns.name, name: 'applied', outcome: 'created' },
    ]);
    const stored = (await readAgent('applied')) as { metadata: { managedFields: { manager: string }[] } };
    expect(stored.metadata.managedFields.map((f) => f.manager)).toContain('platform-ui');
    await fx.until(`/v1/agents/${ns.name}.applied`, (g) => g.status === 200, 'owner');
    const again = await post('owner', 'apply', { text, namespace: ns.name });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.results).toEqual([
      { kind: 'PlatformAgent', namespace: ns.name, name: 'applied', outcome: 'unchanged' },
    ]);
    // Its Owner changes the model: configured.
    const changed = await post('owner', 'apply', {
      text: text.replace('gpt-4o-mini', 'gpt-4o'),
      namespace: ns.name,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((changed.body.results as { outcome: string }[])[0]!.outcome).toBe('configured');
    const after = (await readAgent('applied')) as { spec: { model: { id: string } } };
    expect(after.spec.model.id).toBe('gpt-4o');
  });

  it('refuses callers who may not apply a resource, and writes nothing', async () => {
    const stranger = await post('stranger', 'apply', { text: agentFile('not-mine'), namespace: ns.name });
    expect(stranger.status).toBe(403);
    expect(stranger.body.detail).toMatch(/creating agents in .* needs a workspace or org administrator/);
    await expect(readAgent('not-mine')).rejects.toThrow();
    // An Editor of an existing agent is not its Owner.
    await fx.createAgent('shared');
    const editor = await post('editor', 'apply', { text: agentFile('shared'), namespace: ns.name });
    expect(editor.status).toBe(403);
    expect(editor.body.detail).toMatch(/only its Owners may apply it/);
    const ws = `apiVersion: platform.io/v1alpha1\nkind: PlatformWorkspace\nmetadata:\n  name: team\nspec: {}\n`;
    expect((await post('owner', 'apply', { text: ws, namespace: ns.name })).status).toBe(403);
    const noOwner = await post('workspace_admin', 'apply', {
      text: agentFile('orphan').replace(/ {2}owners:\n.*\n.*\n/, ''),
      namespace: ns.name,
    });
    expect(noOwner.status).toBe(422);
    expect(noOwner.body.code).toBe('owner_required');
  });

  it('applies a workspace and an environment for an administrator of the namespace', async () => {
    const text = `apiVersion: platform.io/v1alpha1
kind: PlatformWorkspace
metadata:
  name: team
spec:
  defaults:
    auditorChain:
      preRequest:
        - auditorId: injection
---
apiVersion: platform.io/v1alpha1
kind: PlatformEnvironment
metadata:
  name: backend
spec:
  deploymentType: model
  model:
    id: llama-3-8b
`;
    const r = await post('workspace_admin', 'apply', { text, namespace: ns.name });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results).toEqual([
      { kind: 'PlatformWorkspace', namespace: ns.name, name: 'team', outcome: 'created' },
      { kind: 'PlatformEnvironment', namespace: ns.name, name: 'backend', outcome: 'created' },
    ]);
  });

  it('answers 422 with the errors as `platform apply` prints them, and for a non-YAML body', async () => {
    const r = await post('workspace_admin', 'apply', {
      text: agentFile('x').replace('kind: PlatformAgent', 'kind: ['),
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('invalid_definition');
    expect(r.body.detail).toMatch(/^definition\.yaml:\d+:\d+: malformed YAML/);
    expect((await postText('workspace_admin', 'apply', Buffer.from([0xc3, 0x28]))).status).toBe(422);
    expect((await postText('workspace_admin', 'apply', `# ${'x'.repeat(300 * 1024)}\n`)).status).toBe(413);
    // A malformed query namespace is refused even when the body names its own (found by schemathesis).
    const query = await fx.call('POST', '/v1/definitions/validate?namespace=', {
      key: fx.keys.workspace_admin,
      body: { text: agentFile('x'), namespace: ns.name },
    });
    expect(query.status).toBe(400);
    expect(query.body.code).toBe('invalid_query');
    const file = await postText('workspace_admin', 'validate', agentFile('x'), '?file=');
    expect(file.status).toBe(400);
    const long = await postText('workspace_admin', 'validate', agentFile('x'), `?file=${'f'.repeat(254)}`);
    expect(long.status).toBe(400);
  });

  it('sends a lowered audit mode to an Owner approval instead of applying it', async () => {
    const text = agentFile('strict', '  auditMode: enforce\n').replace('x-notes', 'x-n');
    expect((await post('workspace_admin', 'apply', { text, namespace: ns.name })).status).toBe(200);
    const lowered = await post('owner', 'apply', {
      text: text.replace('enforce', 'observe'),
      namespace: ns.name,
    });
    expect(lowered.status).toBe(422);
    expect(lowered.body.code).toBe('approval_required');
    const stored = (await readAgent('strict')) as { spec: { auditMode: string } };
    expect(stored.spec.auditMode).toBe('enforce');
  });

  it('answers 409 naming the field another field manager set, and takes it over with force', async () => {
    await fx.createAgent('wizard-made');
    const text = agentFile('wizard-made').replace('gpt-4o-mini', 'other-model');
    const r = await post('owner', 'apply', { text, namespace: ns.name });
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.code).toBe('field_conflict');
    expect(r.body.detail).toMatch(/spec\.model\.id/);
    const forced = await post('owner', 'apply', { text, namespace: ns.name, force: true });
    expect(forced.status, JSON.stringify(forced.body)).toBe(200);
    const stored = (await readAgent('wizard-made')) as { spec: { model: { id: string } } };
    expect(stored.spec.model.id).toBe('other-model');
  });
});
