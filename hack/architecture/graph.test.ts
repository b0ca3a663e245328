import { describe, expect, it } from 'vitest';
import {
  BEGIN_MARKER,
  buildGraph,
  cycles,
  END_MARKER,
  graphProblems,
  importsOf,
  layers,
  nodeOf,
  renderSection,
  withSection,
} from './graph.ts';

const tree = (files: Record<string, string>): Map<string, string> => new Map(Object.entries(files));

describe('the folder import graph', () => {
  it('maps paths to folders, the auditor SDK apart', () => {
    expect(nodeOf('api/routes/agents.ts')).toBe('api');
    expect(nodeOf('auditors/sdk/serve.ts')).toBe('auditors/sdk');
    expect(nodeOf('auditors/injection/index.ts')).toBe('auditors');
    expect(nodeOf('vitest.config.ts')).toBeUndefined();
  });

  it('reads static, re-export, type-only and dynamic imports, resolved from the file', () => {
    const source = [
      "import { a } from '../base/log.ts';",
      "import type { B } from './b.ts';",
      "export { c } from '../../crds/kit.ts';",
      "const d = await import('../agent/run.ts');",
      "import { readFileSync } from 'node:fs';",
      'const s = \'import x from "../not-an-import.ts"\';',
    ].join('\n');
    expect(importsOf('api/routes/x.ts', source)).toEqual([
      'api/base/log.ts',
      'api/routes/b.ts',
      'crds/kit.ts',
      'api/agent/run.ts',
    ]);
  });

  it('leaves tests out and counts cross-folder edges only', () => {
    const g = buildGraph(
      tree({
        'api/a.ts': "import { x } from '../base/x.ts';\nimport { y } from './y.ts';",
        'api/a.test.ts': "import { c } from '../controllers/c.ts';",
        'base/x.ts': '',
      }),
    );
    expect(g.nodes).toEqual(['api', 'base']);
    expect([...(g.edges.get('api')?.entries() ?? [])]).toEqual([['base', 1]]);
  });

  it('finds an import cycle and names one import of each edge', () => {
    const g = buildGraph(
      tree({
        'api/a.ts': "import { e } from '../evidence/e.ts';",
        'evidence/e.ts': "import { a } from '../api/a.ts';",
        'base/x.ts': '',
      }),
    );
    expect(cycles(g)).toEqual([['api', 'evidence']]);
    const [problem] = graphProblems(g);
    expect(problem).toContain('import cycle between api, evidence');
    expect(problem).toContain('evidence/e.ts → api/a.ts');
  });

  it('puts each folder one layer above the highest folder it imports', () => {
    const g = buildGraph(
      tree({
        'base/x.ts': '',
        'crds/k.ts': "import { x } from '../base/x.ts';",
        'api/a.ts': "import { k } from '../crds/k.ts';\nimport { x } from '../base/x.ts';",
      }),
    );
    expect(Object.fromEntries(layers(g))).toEqual({ base: 0, crds: 1, api: 2 });
  });

  it('replaces only the generated section of the document', () => {
    const g = buildGraph(tree({ 'base/x.ts': '' }));
    const doc = `# Title\n\nText.\n\n${BEGIN_MARKER}\nold\n${END_MARKER}\n\nAfter.\n`;
    const out = withSection(doc, renderSection(g));
    expect(out.startsWith('# Title\n\nText.\n\n')).toBe(true);
    expect(out.endsWith(`${END_MARKER}\n\nAfter.\n`)).toBe(true);
    expect(out).not.toContain('\nold\n');
    expect(withSection(out, renderSection(g))).toBe(out);
  });
});
