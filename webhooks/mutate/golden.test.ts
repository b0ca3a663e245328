// Golden files: every `<case>.input.json` (pod + namespace labels + ConfigMap)
// runs through the /mutate path and must produce `<case>.golden.json` exactly
// (the patch, the patched pod, warnings, Events). A golden file without an
// input (unused) or an input without a golden file fails the suite.
// `UPDATE_GOLDEN=1 npx vitest run --project unit webhooks/mutate/golden.test.ts`
// rewrites them and deletes the unused ones.
import { existsSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { parseReview } from '../admission/review.ts';
import {
  FIXTURE_DIR,
  fakeCluster,
  loadMutateFixtures,
  quietLogger,
  recordingEvents,
  reviewFor,
  testMutateOptions,
  type MutateFixture,
} from '../testing/fixtures.ts';
import { handleMutate } from './handler.ts';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const fixtures = loadMutateFixtures();

async function render(fixture: MutateFixture): Promise<unknown> {
  const events = recordingEvents();
  const response = await handleMutate(parseReview(reviewFor(fixture)), {
    options: testMutateOptions(fixture.options),
    cluster: fakeCluster(fixture.namespaceLabels, fixture.configMap ?? undefined, fixture.registered),
    events,
    log: quietLogger(),
  });
  const patch = response.patch
    ? (JSON.parse(Buffer.from(response.patch, 'base64').toString()) as fastJsonPatch.Operation[])
    : [];
  const patched = fastJsonPatch.applyPatch(structuredClone(fixture.pod), patch, true, false).newDocument;
  return {
    allowed: response.allowed,
    warnings: response.warnings ?? [],
    events: events.recorded,
    patch,
    pod: patched,
  };
}

const goldenPath = (name: string): string => join(FIXTURE_DIR, `${name}.golden.json`);

describe('golden files for /mutate', () => {
  for (const [name, fixture] of fixtures) {
    it(`${name}: ${fixture.description}`, async () => {
      const actual = `${JSON.stringify(await render(fixture), null, 2)}\n`;
      if (UPDATE) writeFileSync(goldenPath(name), actual);
      expect(existsSync(goldenPath(name)), `missing ${name}.golden.json (run with UPDATE_GOLDEN=1)`).toBe(
        true,
      );
      expect(actual, `stale ${name}.golden.json (run with UPDATE_GOLDEN=1 and review the diff)`).toBe(
        readFileSync(goldenPath(name), 'utf8'),
      );
    });
  }

  it('has no unused golden file', () => {
    const goldens = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.golden.json'));
    const unused = goldens.filter((f) => !fixtures.has(f.replace(/\.golden\.json$/, '')));
    if (UPDATE) for (const f of unused) unlinkSync(join(FIXTURE_DIR, f));
    expect(UPDATE ? [] : unused).toEqual([]);
  });

  it('covers every skip predicate, every chain source and the invalid branch', async () => {
    const outcomes = await Promise.all([...fixtures.values()].map(render));
    const sources = new Set(
      outcomes.flatMap((o) => {
        const status = (o as { pod: { metadata?: { annotations?: Record<string, string> } } }).pod.metadata
          ?.annotations?.['platform.computing/injection-status'];
        return status ? [(JSON.parse(status) as { source: string }).source] : [];
      }),
    );
    expect([...sources].sort()).toEqual([
      'annotation:auditor-chain',
      'annotation:auditors',
      'configmap',
      'default',
    ]);
    expect(outcomes.some((o) => (o as { warnings: string[] }).warnings.length > 0)).toBe(true);
  });
});

describe('sidecar probes', () => {
  type Probe = { httpGet: { path: string; port: number } };
  type Container = {
    name: string;
    ports?: { containerPort: number }[];
    startupProbe?: Probe;
    readinessProbe?: Probe;
    livenessProbe?: Probe;
  };

  it('probe every injected sidecar on its own port; third-party auditors on the contract path /health', async () => {
    const out = (await render(fixtures.get('third-party-port-collision')!)) as {
      pod: { spec: { initContainers?: Container[]; containers: Container[] } };
    };
    const sidecars = [...(out.pod.spec.initContainers ?? []), ...out.pod.spec.containers].filter(
      (c) => /^(platform-|auditor-)/.test(c.name) && c.ports?.length,
    );
    expect(sidecars.length).toBeGreaterThan(3);
    for (const c of sidecars) {
      const port = c.ports![0]!.containerPort;
      const paths = [c.startupProbe, c.readinessProbe, c.livenessProbe].map((p) => {
        expect(p?.httpGet.port, c.name).toBe(port);
        return p!.httpGet.path;
      });
      const builtin = !c.name.startsWith('auditor-acme-');
      expect(paths, c.name).toEqual(
        builtin ? ['/healthz', '/readyz', '/healthz'] : ['/health', '/health', '/health'],
      );
    }
  });
});
