// Policy files: documents found in YAML streams, JSON lists and `kind: List`,
// and problems placed at their file:line, inside the Cedar text too.
import { describe, expect, it } from 'vitest';
import { knownVocabularies } from './policy-decide.ts';
import { checkPolicyDocs } from './policy-check.ts';
import { parsePolicyText, pointerPath, problemLine } from './policy-file.ts';

const POLICY = `apiVersion: platform.io/v1alpha1
kind: AuditorPolicy
metadata: { name: p }
spec:
  scope: workspace
  scopeId: team
  cedar: |
    @id("ok")
    forbid (principal, action, resource) when { context.injection_score > 900 };
    @id("bad")
    forbid (principal, action, resource) when { context.nope == true };
`;

describe('policy files', () => {
  it('reads several YAML documents, naming each <namespace>.<name>', () => {
    const { docs, problems } = parsePolicyText(
      `${POLICY}---\n${POLICY.replace('name: p', 'name: q, namespace: ns')}`,
      'f.yaml',
      'dflt',
    );
    expect(problems).toEqual([]);
    expect(docs.map((d) => d.id)).toEqual(['dflt.p', 'ns.q']);
    expect(docs[1]!.lineOf('/spec/scopeId')).toBe(18);
    expect(docs[0]!.lineOf('/spec/responseRules/0')).toBe(5); // absent: where its parent, spec, begins
  });

  it('reads JSON lists and kind: List, and refuses documents that are not mappings', () => {
    const json = JSON.stringify([{ kind: 'AuditorPolicy', metadata: { name: 'a' }, spec: {} }], null, 2);
    expect(parsePolicyText(json, 'f.json', 'n').docs.map((d) => d.id)).toEqual(['n.a']);
    const list = `kind: List\nitems:\n  - kind: AuditorPolicy\n    metadata: { name: b }\n    spec: { scope: org }\n`;
    const { docs } = parsePolicyText(list, 'l.yaml', 'n');
    expect(docs[0]!.lineOf('/spec/scope')).toBe(5);
    expect(parsePolicyText('- 1\n', 'x.yaml', 'n').problems).toEqual([
      { file: 'x.yaml', line: 1, message: 'a document must be a mapping (an AuditorPolicy)' },
    ]);
  });

  it('places a YAML error at its line', () => {
    const { problems } = parsePolicyText('a: 1\nb: [\n', 'y.yaml', 'n');
    expect(problems[0]).toMatchObject({ file: 'y.yaml', line: 3 });
    expect(problemLine(problems[0]!)).toMatch(/^y\.yaml:3: invalid YAML: /);
  });

  it('places a Cedar validation problem on its line inside the block', () => {
    const { docs } = parsePolicyText(POLICY, 'c.yaml', 'ns');
    const problems = checkPolicyDocs(docs, knownVocabularies());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'c.yaml', line: 11 });
    expect(problems[0]!.message).toMatch(/^ns\.p\/bad: .*attribute `nope`/);
  });

  it('splits JSON pointers with their escapes', () => {
    expect(pointerPath('/spec/detection/a~1b/c~0d')).toEqual(['spec', 'detection', 'a/b', 'c~d']);
  });
});
