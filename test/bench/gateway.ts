// Gateway benchmarks: time the Gateway adds on top of the slowest auditor
// (p50/p99, 4-auditor chain of loopback auditors), Cedar time per decision,
// and Evidence intake per second on the embedded store and on PostgreSQL.
// Run: npx tsx test/bench/gateway.ts (add --cedar-only for the Cedar micro-benchmark alone)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAttestationAgent } from '../../attestation/agent.ts';
import type { Claim, Vocabulary } from '../../auditors/sdk/types.ts';
import { pinnedAttesterKeys, intakeEvidence, memoryPassport } from '../../evidence/intake.ts';
import { FileEvidenceStore } from '../../evidence/store-file.ts';
import type { EvidenceStore } from '../../evidence/store.ts';
import { fetchVocabulary, type ChainAuditor } from '../../gateway/auditors.ts';
import { Pipeline } from '../../gateway/pipeline.ts';
import { compilePolicySet, compileRule } from '../../policy/cedar-gen.ts';
import { CedarEngine } from '../../policy/cedar-engine.ts';
import { cedarSchema, indexVocabularies, type ClaimInfo } from '../../policy/cedar-schema.ts';
import { bundlePreset, presetCedar } from '../../policy/presets.ts';
import type { PolicyRecord } from '../../policy/types.ts';
import { sampleEvidence } from '../process/fixtures/evidence.ts';
import { freePort } from '../process/fixtures/loopback.ts';
import { startPostgres } from '../process/fixtures/postgres.ts';

const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function vocabularyOf(id: string, claims: { name: string; type: string }[]): Vocabulary {
  return {
    auditor_id: id,
    version: '1',
    phases: ['request'],
    vocabulary: claims.map((c) => ({
      name: c.name,
      type: c.type,
      description: '',
      value_schema: {},
      settings: [],
    })),
  } as Vocabulary;
}

function fakeAuditor(
  id: string,
  delayMs: number,
  claims: { name: string; type: string; value: unknown }[],
): Promise<{ server: Server; url: string; vocab: Vocabulary }> {
  const vocab = vocabularyOf(id, claims);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(req.url === '/vocabulary' ? vocab : { status: 'success', claims }));
        },
        req.url === '/vocabulary' ? 0 : delayMs,
      ),
    );
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, vocab }),
    ),
  );
}

const CLAIMS = {
  injection: [
    { name: 'injection_detected', type: 'boolean', value: false },
    { name: 'injection_score', type: 'score_normalized', value: 0.12 },
    { name: 'injection.invisible_chars_detected', type: 'boolean', value: false },
    { name: 'injection.pattern_score', type: 'score_normalized', value: 0.05 },
    { name: 'injection.banned_substrings', type: 'string_list', value: [] },
  ],
  toxicity: [
    { name: 'toxicity_detected', type: 'boolean', value: false },
    { name: 'toxicity_score', type: 'score_normalized', value: 0.1 },
    { name: 'toxicity.threat', type: 'score_normalized', value: 0.01 },
  ],
  'model-context': [
    { name: 'input_tokens', type: 'count', value: 120 },
    { name: 'context_window_usage', type: 'score_normalized', value: 0.01 },
    { name: 'context_window_near_limit', type: 'boolean', value: false },
  ],
  'llm-judge': [
    { name: 'judge_risk_score', type: 'score_normalized', value: 0.1 },
    { name: 'judge_risk_detected', type: 'boolean', value: false },
  ],
};

/** The one org-level policy both benchmarks evaluate: the `regulated_enterprise` bundle. */
function orgPolicyChain(claims: Map<string, ClaimInfo>): PolicyRecord[] {
  const preset = bundlePreset('regulated_enterprise')!;
  return [
    {
      id: 'acme.org',
      version: '1',
      spec: {
        scope: 'org',
        scopeId: 'acme',
        responseRules: preset.responseRules,
        cedar: presetCedar(preset, claims),
      },
    },
  ];
}

async function gatewayBench(): Promise<void> {
  const fakes = await Promise.all(Object.entries(CLAIMS).map(([id, c], i) => fakeAuditor(id, 2 + i, c)));
  const { claims } = indexVocabularies(fakes.map((f) => f.vocab));
  const chain = orgPolicyChain(claims);
  const auditors: ChainAuditor[] = fakes.map((f) => ({
    id: f.vocab.auditor_id,
    url: f.url,
    deploymentMode: 'sidecar',
    auth: { type: 'none' },
  }));
  await Promise.all(auditors.map((a) => fetchVocabulary(a, 2000)));
  const pipeline = new Pipeline({
    agentId: 'ns.a',
    workspaceId: 'ws',
    sessionId: 's',
    attesterId: 'gw',
    auditMode: 'enforce',
    timeoutMs: 30_000,
    auditors: () => auditors,
    policy: {
      current: () => ({ policy_id: 'acme.org', policy_version: '1', chain }),
      problem: () => '',
      refresh: async () => {},
    },
    agent: createAttestationAgent({ provider: 'MOCK' }),
  });
  const added: number[] = [];
  const cedar: number[] = [];
  for (let i = 0; i < 1200; i++) {
    const r = await pipeline.evaluate({ data: { input: 'hello' }, phase: 'request' });
    if (r.evidence.decision !== 'allow')
      throw new Error(`unexpected deny: ${r.evidence.decision_reasons.join('; ')}`);
    if (i >= 200) {
      added.push(r.timings.totalMs - r.timings.slowestAuditorMs);
      cedar.push(r.timings.cedarMs);
    }
  }
  console.log(
    `gateway added latency over slowest auditor (4 auditors, 1000 req): p50 ${pct(added, 50).toFixed(2)} ms, p99 ${pct(added, 99).toFixed(2)} ms`,
  );
  console.log(`  of which decision step (context + Cedar) p50 ${(pct(cedar, 50) * 1000).toFixed(0)} µs`);
  for (const f of fakes) f.server.close();
}

/** The policy set of `size` policies: 2 (base permit + one rule), 11 (regulated_enterprise), 40 (that plus non-firing rules). */
function policySetOf(size: number, claims: Map<string, ClaimInfo>): Record<string, string> {
  const chain = orgPolicyChain(claims);
  const { policies } = compilePolicySet(chain, claims);
  const ids = Object.keys(policies);
  if (size <= ids.length) return Object.fromEntries(ids.slice(0, size).map((id) => [id, policies[id]!]));
  const scores = [...claims].filter(([, c]) => c.type === 'score_normalized').map(([name]) => name);
  for (let i = 0; ids.length + i < size; i++) {
    const claim = scores[i % scores.length]!;
    const rule = {
      name: `extra-${i}`,
      effect: 'forbid' as const,
      when: [{ claim, op: '>=' as const, value: 0.9 + (i % 10) / 100 }],
    };
    policies[`acme.org/extra-${i}`] = compileRule(rule, claims);
  }
  return policies;
}

/** µs per `CedarEngine.decide` (context built and type-checked + Cedar), median of 7 runs. */
function cedarMicroBench(): void {
  const vocabs = Object.entries(CLAIMS).map(([id, c]) => vocabularyOf(id, c));
  const { claims } = indexVocabularies(vocabs);
  const facts = {
    agentId: 'ns.a',
    workspaceId: 'ws',
    phase: 'request',
    claims: Object.values(CLAIMS).flat() as Claim[],
  };
  for (const size of [2, 11, 40]) {
    const engine = new CedarEngine();
    const policies = policySetOf(size, claims);
    const problems = engine.load('p', '1', policies, cedarSchema(claims));
    if (problems.length) throw new Error(problems.join('; '));
    if (engine.decide('p', facts, claims).decision !== 'allow') throw new Error('unexpected deny');
    for (let i = 0; i < 2000; i++) engine.decide('p', facts, claims);
    const runs: number[] = [];
    for (let r = 0; r < 7; r++) {
      const n = 3000;
      const t = performance.now();
      for (let i = 0; i < n; i++) engine.decide('p', facts, claims);
      runs.push(((performance.now() - t) / n) * 1000);
    }
    console.log(
      `Cedar decision (${Object.keys(policies).length} policies, ${facts.claims.length} claims): median ${pct(runs, 50).toFixed(1)} µs per decision (min ${Math.min(...runs).toFixed(1)}, 7 runs × 3000)`,
    );
  }
}

async function intakeBench(name: string, tag: string, store: EvidenceStore): Promise<void> {
  const deps = {
    store,
    keys: pinnedAttesterKeys(store),
    passport: memoryPassport(),
    registrations: () => undefined,
    agents: (id: string) => Promise.resolve({ uid: `uid-${id}` }),
  };
  const items = await Promise.all(
    Array.from({ length: 3000 }, (_, i) => sampleEvidence(`${tag}-${i}`, `ns.a${i % 10}`)),
  );
  const t = performance.now();
  let created = 0;
  for (let i = 0; i < items.length; i += 64) {
    const out = await Promise.all(items.slice(i, i + 64).map((e) => intakeEvidence(e, deps, 'bench')));
    created += out.filter((o) => o.status === 201).length;
  }
  if (created !== items.length) throw new Error(`only ${created} of ${items.length} accepted`);
  console.log(
    `evidence intake, ${name}: ${Math.round(items.length / ((performance.now() - t) / 1000))} Evidence/s (validate + verify signature + assess + chained append, 64 in flight)`,
  );
  await store.close();
}

if (process.argv.includes('--cedar-only')) {
  cedarMicroBench();
  process.exit(0);
}
await gatewayBench();
cedarMicroBench();
await intakeBench(
  'embedded (JSONL, fdatasync per batch)',
  'file',
  await FileEvidenceStore.open({ path: join(mkdtempSync(join(tmpdir(), 'bench-')), 'e.jsonl') }),
);
const db = startPostgres(await freePort());
const { PgEvidenceStore } = await import('../../evidence/store-pg.ts');
try {
  await intakeBench('PostgreSQL (group commit)', 'pg', await PgEvidenceStore.open(db.url));
} finally {
  db.stop();
}
