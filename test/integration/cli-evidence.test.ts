// `platform evidence export|verify` as a user runs them, in a subprocess,
// against the real Verifier API on the local control plane: Evidence a
// Gateway key recorded is exported to a bundle, the bundle verifies offline
// (no server given), and one byte changed in a record makes it fail, naming
// that record; bad input gets one line and its exit code.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentGatewayKey, useApi } from './api-harness.ts';
import { useNamespace } from './harness.ts';
import { gatewayEvidence, mockAttester } from '../fixtures/cli/evidence.ts';
import { oneLine, runCli, type CliResult } from '../fixtures/cli/run-cli.ts';

const ns = useNamespace('cli-evidence');
const fx = useApi(ns);
const dir = mkdtempSync(join(tmpdir(), 'cli-evidence-'));
const BUNDLE = join(dir, 'bundle.json');
const cli = (args: string[], key = fx.keys.viewer): Promise<CliResult> =>
  runCli(args, { server: fx.api.url, key });
let agentId = '';
let other = '';

/** `text` with the byte at `offset` into the line of `evidenceId`'s record replaced. */
function changeByte(text: string, evidenceId: string, find: string, replace: string): string {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(`"evidence_id":"${evidenceId}"`));
  expect(lines[i]).toContain(find);
  expect(Buffer.byteLength(find)).toBe(Buffer.byteLength(replace));
  lines[i] = lines[i]!.replace(find, replace);
  return lines.join('\n');
}

beforeAll(async () => {
  agentId = await fx.createAgent('exported');
  other = await fx.createAgent('neighbour');
  const key = await agentGatewayKey(fx, agentId, true);
  const otherKey = await agentGatewayKey(fx, other, true);
  const attester = mockAttester();
  const post = async (id: string, agent: string, k: string, score: number): Promise<void> => {
    const ev = await gatewayEvidence(attester, id, agent, {
      injectionScore: score,
      decision: score >= 0.8 ? 'deny' : 'allow',
    });
    const r = await fx.call('POST', '/v1/evidence', { key: k, body: ev });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };
  // The neighbour's entry sits between the agent's first and second in the store's one chain.
  await post('ev-1', agentId, key, 0.1);
  await post('ev-neighbour', other, otherKey, 0.2);
  await post('ev-2', agentId, key, 0.93);
  await post('ev-3', agentId, key, 0.3);
});

describe('platform evidence export', () => {
  it("writes the agent's Evidence, results, keys and chain links to a bundle", async () => {
    const r = await cli(['evidence', 'export', '--agent', agentId, '--since', '1h', '-o', BUNDLE]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`^exported 3 Evidence of ${agentId.replace('.', '\\.')} \\(seq \\d+–\\d+\\) to `),
    );
    const bundle = JSON.parse(readFileSync(BUNDLE, 'utf8')) as Record<string, unknown> & {
      records: { evidence_id: string; result: { trust_tier: string } }[];
      trust: { attester_keys: unknown[]; auditors: { auditor_id: string; ceiling: string }[] };
    };
    expect(bundle).toMatchObject({ format: 'platform.evidence-bundle', version: 1, agent_id: agentId });
    expect(bundle.records.map((e) => e.evidence_id)).toEqual(['ev-1', 'ev-2', 'ev-3']);
    expect(bundle.records[0]!.result.trust_tier).toBe('mtls_verified');
    expect(bundle.trust.attester_keys).toHaveLength(1);
    expect(bundle.trust.auditors.map((a) => [a.auditor_id, a.ceiling]).sort()).toEqual([
      ['injection', 'tee_attested'],
      ['llm-judge', 'tee_attested'],
      ['model-context', 'tee_attested'],
      ['toxicity', 'tee_attested'],
    ]);
  });

  it('exports nothing from a range before the calls, and stays valid', async () => {
    const empty = join(dir, 'empty.json');
    const r = await cli([
      'evidence',
      'export',
      '--agent',
      agentId,
      '--from',
      '2020-01-01T00:00:00Z',
      '--to',
      '2020-01-02T00:00:00Z',
      '-o',
      empty,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const v = await runCli(['evidence', 'verify', empty]);
    expect(v.stdout.trim()).toBe(
      `OK: 0 records of ${agentId}: signatures valid, hash chain intact (0 links, 0 gaps of other agents' entries), trust tiers recomputed`,
    );
  });

  it('answers bad input with one line: no -o, a bad agent id, a bad range, no access', async () => {
    const noFile = await cli(['evidence', 'export', '--agent', agentId]);
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toBe(
      'platform: no bundle file given; pass -o <file>, or -o - for standard output\n',
    );
    const badId = await cli(['evidence', 'export', '--agent', 'no-dot', '-o', join(dir, 'x.json')]);
    expect(badId.status).toBe(2);
    expect(badId.stderr).toContain("invalid --agent 'no-dot'");
    const both = await cli([
      'evidence',
      'export',
      '--agent',
      agentId,
      '--since',
      '1h',
      '--from',
      '2030-01-01T00:00:00Z',
      '-o',
      join(dir, 'x.json'),
    ]);
    expect(both.status).toBe(2);
    expect(oneLine(both)).toBe(true);
    const stranger = await cli(
      ['evidence', 'export', '--agent', agentId, '-o', join(dir, 'x.json')],
      fx.keys.stranger,
    );
    expect(stranger.status).toBe(1);
    expect(stranger.stderr).toMatch(/^platform: GET \/v1\/agents\/.*\/evidence\?limit=500: 403: /);
    const away = await runCli(['evidence', 'export', '--agent', agentId, '-o', join(dir, 'x.json')], {
      server: 'http://127.0.0.1:9',
      key: 'k',
    });
    expect(away.status).toBe(4);
  });
});

describe('platform evidence verify (offline)', () => {
  it('passes the exported bundle with no server at all', async () => {
    const r = await runCli(['evidence', 'verify', BUNDLE], { server: 'http://127.0.0.1:9' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(
      new RegExp(
        `^OK: 3 records of ${agentId.replace('.', '\\.')}, seq \\d+–\\d+: signatures valid, hash chain intact \\(1 links, 1 gaps of other agents' entries\\), trust tiers recomputed \\(3 mtls_verified\\)$`,
      ),
    );
  });

  it('fails on one byte changed in a signed claim, naming the record', async () => {
    const text = readFileSync(BUNDLE, 'utf8');
    const changed = join(dir, 'claim.json');
    writeFileSync(changed, changeByte(text, 'ev-2', '"value":0.93', '"value":0.13'));
    const r = await runCli(['evidence', 'verify', changed]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /^FAILED: record 2 \(seq \d+, evidence ev-2\): signature: signature does not match the Evidence\n$/,
    );
  });

  it("fails on one byte changed in the Verifier's result, naming the record and the hash chain", async () => {
    const text = readFileSync(BUNDLE, 'utf8');
    const changed = join(dir, 'result.json');
    writeFileSync(
      changed,
      changeByte(text, 'ev-3', '"trust_tier":"mtls_verified"', '"trust_tier":"mtls_verifieD"'),
    );
    const r = await runCli(['-o', 'json', 'evidence', 'verify', changed]);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      record: { index: 3, evidence_id: 'ev-3' },
      problem: 'hash chain: the entry hash does not match its content',
    });
  });

  it('names the record whose line no longer parses', async () => {
    const text = readFileSync(BUNDLE, 'utf8');
    const changed = join(dir, 'syntax.json');
    writeFileSync(changed, changeByte(text, 'ev-1', '"seq":', '"seq";'));
    const r = await runCli(['evidence', 'verify', changed]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^FAILED: record 1 \(evidence ev-1\): line \d+ is not valid JSON\n$/);
  });

  it('answers a missing file with exit 2', async () => {
    const r = await runCli(['evidence', 'verify', join(dir, 'absent.json')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^platform: cannot read .*absent\.json: ENOENT\n$/);
  });
});
