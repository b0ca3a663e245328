import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { formatError } from './errors.ts';
import { applyDefinitionFile, loadDefinitionFile } from './validate.ts';

const fixture = (name: string): string =>
  readFileSync(join(REPO_ROOT, 'test/fixtures/definitions', name), 'utf8');
const HEAD = 'apiVersion: platform.io/v1alpha1\nkind: PlatformAgent\nmetadata:\n  name: bot\n';

function errorsOf(text: string, knownAuditors?: string[]): ReturnType<typeof formatError>[] {
  const r = loadDefinitionFile(text, { file: 'f.yaml', ...(knownAuditors ? { knownAuditors } : {}) });
  return r.ok ? [] : r.errors.map(formatError);
}

describe('loading definition files', () => {
  it('turns a workspace into the workspace alone; its agents stay in spec.agents for the controller', () => {
    const r = loadDefinitionFile(fixture('workspace-top-level.yaml'), { namespace: 'team' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.resources.map((x) => x.kind)).toEqual(['PlatformWorkspace']);
    const ws = r.resources[0] as { spec: Record<string, unknown>; metadata: Record<string, unknown> };
    expect(ws.metadata).toMatchObject({ namespace: 'team' });
    expect(ws.spec.abilities).toMatchObject({ soul: { identity: { name: 'Planner' } } });
    expect(ws.spec.environment).toMatchObject({
      credentialRouting: [
        { destination: '*.github.com', injectionMethod: 'client_credentials', approval: 'auto' },
      ],
    });
    expect(ws).not.toHaveProperty('x-team-notes');
    expect(ws.spec.agents).toMatchObject([
      { name: 'planner' },
      { name: 'coder', owners: [{ subject: 'bob@example.com', role: 'Editor' }] },
    ]);
  });

  it('accepts abilities and environment under spec, and deployment_type on an environment', () => {
    expect(loadDefinitionFile(fixture('agent-under-spec.yaml')).ok).toBe(true);
    const env = loadDefinitionFile(fixture('environment-model.yaml'));
    expect(env.ok && env.resources[0]!.spec.deploymentType).toBe('model');
  });

  it('reports malformed YAML with its position', () => {
    expect(errorsOf(`${HEAD}spec:\n  owners: [\n`)[0]).toMatch(/^f\.yaml:7:1: malformed YAML: Flow sequence/);
    expect(errorsOf(`${HEAD}spec: {}\nspec: {}\n`)[0]).toMatch(
      /^f\.yaml:6:1: malformed YAML: Map keys must be unique/,
    );
  });

  it('reports a wrong kind and an unknown apiVersion at their lines', () => {
    const errors = errorsOf('apiVersion: platform.io/v1\nkind: Pod\nmetadata: {name: x}\n');
    expect(errors).toEqual([
      'f.yaml:1:13: apiVersion: unknown apiVersion (expected platform.io/v1alpha1, found "platform.io/v1")',
      'f.yaml:2:7: kind: wrong kind for a definition file (expected one of PlatformWorkspace, PlatformAgent, PlatformEnvironment, found "Pod")',
    ]);
  });

  it('reports every error at once with field path, expected and found', () => {
    const text = [
      'apiVersion: platform.io/v1alpha1',
      'kind: PlatformWorkspace',
      'metadata: {name: ws}',
      'spec:',
      '  policies: [strict]',
      '  defaults:',
      '    auditorSettings:',
      '      pii: {threshold: {value: 1}}',
      '  agents:',
      '    - name: a',
      '    - name: a',
      '      owners: [{subject: x, role: Admin}]',
      'environment:',
      '  credentialRouting:',
      '    - destination: api.*.example.com',
      '',
    ].join('\n');
    expect(errorsOf(text)).toEqual([
      'f.yaml:5:3: spec.policies: `policies` was replaced by the auditorSettings cascade (org → workspace → agent, agent wins): set spec.defaults.auditorSettings.<auditor_id>.<setting> or spec.agents[].auditorSettings instead',
      'f.yaml:8:7: spec.defaults.auditorSettings.pii: settings for an auditor that does not exist (expected one of injection, llm-judge, model-context, toxicity, found "pii")',
      'f.yaml:11:13: spec.agents[1].name: duplicate agent name (first at spec.agents[0]) (expected a unique name, found "a")',
      'f.yaml:12:35: spec.agents[1].owners[0].role: not an allowed value (expected one of Owner, Editor, Viewer, found "Admin")',
      'f.yaml:15:20: environment.credentialRouting[0].destination: a wildcard is allowed only as the whole leading label (expected a host like *.example.com, found "api.*.example.com")',
    ]);
  });

  it('accepts settings for auditors registered later', () => {
    const text = `${HEAD}spec:\n  auditorSettings:\n    pii: {threshold: {value: 1}}\n`;
    expect(errorsOf(text)).toHaveLength(1);
    expect(errorsOf(text, ['pii'])).toEqual([]);
  });

  it('asks for camelCase setting names and points at unknown fields', () => {
    const text = `${HEAD}spec:\n  modle: {id: x}\n  auditorSettings:\n    injection:\n      ban_substrings: {value: [a]}\n`;
    expect(errorsOf(text)).toEqual([
      'f.yaml:6:3: spec.modle: unknown field (expected no unknown field)',
      'f.yaml:9:7: spec.auditorSettings.injection.ban_substrings: setting names are camelCase in definition files (expected banSubstrings, found "ban_substrings")',
    ]);
  });

  it('rejects the same section both beside and under spec, and disagreeing injection spellings', () => {
    const text = `${HEAD}spec:\n  abilities: {}\n  environment:\n    credentialRouting:\n      - {destination: a.com, injectionMethod: sidecar, injection_method: token_exchange}\nabilities: {}\n`;
    const errors = errorsOf(text);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain(
      'spec.environment.credentialRouting[0].injection_method: injectionMethod and injection_method disagree',
    );
    expect(errors[1]).toMatch(
      /^f\.yaml:10:1: abilities: `abilities` is given both at the top level and under spec/,
    );
  });

  it('writes nothing when any document of the file is invalid', async () => {
    const good = fixture('agent-under-spec.yaml');
    const bad = `${HEAD}spec:\n  owners: [{subject: x, role: Boss}]\n`;
    const written: unknown[] = [];
    await expect(
      applyDefinitionFile(`${good}---\n${bad}`, async (r) => {
        written.push(r);
      }),
    ).rejects.toThrow(/role: not an allowed value/);
    expect(written).toEqual([]);
    await applyDefinitionFile(good, async (r) => {
      written.push(r);
    });
    expect(written).toHaveLength(1);
  });
});
