import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { filesIn } from './apply-input.ts';
import { errorLines, mentionsUnknownAuditor, validateInputs, type InputFile } from './apply-validate.ts';

const SAMPLES = join(REPO_ROOT, 'config/samples');
const samples = (): InputFile[] =>
  filesIn(SAMPLES, false).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const one = (text: string, file = 'f.yaml'): ReturnType<typeof validateInputs> =>
  validateInputs([{ file, text }]);
const AGENT = 'apiVersion: platform.io/v1alpha1\nkind: PlatformAgent\nmetadata:\n  name: bot\n';

describe('validating the input of platform apply', () => {
  it('accepts every sample, one object per document', () => {
    const files = samples();
    const v = validateInputs(files);
    expect(errorLines(v.errors)).toEqual([]);
    const docs = files.flatMap((f) => parseAllDocuments(f.text));
    expect(v.objects).toHaveLength(docs.length);
    expect(v.objects.map((o) => o.index)).toEqual(v.objects.map((_, i) => i));
  });

  it('converts a definition file (top-level environment, snake_case) and keeps the namespace it names', () => {
    const v = one(
      `${AGENT}  namespace: team\nspec:\n  owners: [{subject: a@example.com, role: Owner}]\nenvironment:\n  credentialRouting:\n    - {destination: api.github.com, injection_method: sidecar}\n`,
    );
    expect(v.errors).toEqual([]);
    expect(v.objects[0]).toMatchObject({
      kind: 'PlatformAgent',
      name: 'bot',
      namespace: 'team',
      at: 'f.yaml:1',
    });
    expect(v.objects[0]!.body.spec).toMatchObject({
      environment: { credentialRouting: [{ destination: 'api.github.com', injectionMethod: 'sidecar' }] },
    });
    // Defaults are the apiserver's to fill: the object is sent as written.
    expect(v.objects[0]!.body.spec).not.toHaveProperty('auditMode');
  });

  it('sends core objects as written, checking only what names them', () => {
    const v = one('apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {token: x}\n');
    expect(v.errors).toEqual([]);
    expect(v.objects[0]!.body).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      stringData: { token: 'x' },
    });
    expect(errorLines(one('apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n').errors)).toEqual([
      'f.yaml:3:11: metadata.name: metadata.name is required (expected a name, found nothing)',
    ]);
  });

  it('reports every error of every file, each at its line, files in input order', () => {
    const v = validateInputs([
      { file: 'b.yaml', text: `${AGENT}spec:\n  owners: [{subject: a, role: Boss}]\n  colour: red\n` },
      {
        file: 'a.yaml',
        text: 'apiVersion: platform.io/v1alpha1\nkind: AuditorPolicy\nmetadata: {name: p}\nspec: {scope: planet, scopeId: x}\n',
      },
    ]);
    expect(errorLines(v.errors)).toEqual([
      'b.yaml:6:31: spec.owners[0].role: not an allowed value (expected one of Owner, Editor, Viewer, found "Boss")',
      'b.yaml:7:3: spec.colour: unknown field (expected no unknown field)',
      'a.yaml:4:15: spec.scope: not an allowed value (expected one of org, workspace, found "planet")',
    ]);
  });

  it('reports malformed YAML once, at its position, and skips empty documents', () => {
    expect(errorLines(one('a: [\nb: 1\n').errors)).toHaveLength(1);
    expect(errorLines(one('a: [\nb: 1\n').errors)[0]).toMatch(/^f\.yaml:\d+:\d+: malformed YAML: /);
    const v = one('---\n# nothing\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n---\n');
    expect(v.errors).toEqual([]);
    expect(v.objects).toHaveLength(1);
  });

  it('refuses an object given twice, a List, a scalar document and an unknown platform kind', () => {
    const ns = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n';
    expect(
      errorLines(
        validateInputs([
          { file: 'a.yaml', text: ns },
          { file: 'b.yaml', text: ns },
        ]).errors,
      ),
    ).toEqual([
      'b.yaml:3:18: metadata.name: namespace/n is given twice (expected one document (the first is at a.yaml:1))',
    ]);
    expect(
      errorLines(one('apiVersion: v1\nkind: List\nmetadata: {name: l}\nitems: []\n').errors)[0],
    ).toContain('a List is not applied');
    expect(errorLines(one('just a string\n').errors)[0]).toContain('a document is a YAML mapping');
    expect(
      errorLines(one('apiVersion: platform.io/v1alpha1\nkind: Gadget\nmetadata: {name: g}\n').errors)[0],
    ).toMatch(/^f\.yaml:2:7: kind: unknown kind \(expected one of PlatformWorkspace/);
  });

  it('knows the auditors the input registers, and says when one is unknown', () => {
    const uses = `${AGENT}spec:\n  auditorSettings:\n    pii: {threshold: {value: 0.5}}\n`;
    const unknown = one(uses);
    expect(mentionsUnknownAuditor(unknown.errors)).toBe(true);
    const registration =
      'apiVersion: platform.io/v1alpha1\nkind: AuditorRegistration\nmetadata: {name: pii}\nspec: {auditorId: pii, displayName: PII, category: compliance, phase: output_policy, deploymentMode: external, endpoint: "https://pii.example"}\n';
    const both = validateInputs([
      { file: 'a.yaml', text: uses },
      { file: 'r.yaml', text: registration },
    ]);
    expect(errorLines(both.errors)).toEqual([]);
    expect(validateInputs([{ file: 'a.yaml', text: uses }], ['pii']).errors).toEqual([]);
  });
});
