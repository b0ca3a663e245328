// `platform policy` as a user runs it, in a subprocess, against the real
// Verifier API on the local control plane: validate (good, bad with one
// file:line per problem, invalid YAML), test on claim fixtures (an expect
// that does not hold exits 1), push (created, unchanged, a 422 shown as the
// API words it), and a replay over Evidence a Gateway key recorded, showing
// the calls whose decision the new policy would change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k8s } from '../../base/kube.ts';
import { GROUP, PLURAL, VERSION } from '../../contract/kube.ts';
import { agentGatewayKey, createTiers, useApi } from './api-harness.ts';
import { kubeConfig, useNamespace } from './harness.ts';
import { gatewayEvidence, mockAttester } from '../fixtures/cli/evidence.ts';
import { oneLine, runCli, type CliResult } from '../fixtures/cli/run-cli.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'cli', 'policy');
const GOOD = join(FIXTURES, 'good.yaml');
const BAD = join(FIXTURES, 'bad.yaml');
const ns = useNamespace('cli-policy');
const fx = useApi(ns);
const ORG = (): string => `${ns.name}-org`;
const cli = (args: string[], key = fx.keys.org_admin): Promise<CliResult> =>
  runCli(args, { server: fx.api.url, key });

beforeAll(async () => {
  // The workspace names its Organization, so only that org's policies (none) sit above it.
  await createTiers({ org: ORG(), homeNamespace: ns.name, namespace: ns.name, workspace: 'team' });
});

afterAll(async () => {
  const api = kubeConfig().makeApiClient(k8s.CustomObjectsApi);
  await api
    .deleteClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL.organization, name: ORG() })
    .catch(() => undefined);
});

describe('platform policy validate', () => {
  it('passes a valid file: exit 0 and the policies it holds', async () => {
    const r = await runCli(['policy', 'validate', '-f', GOOD]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${GOOD}: 2 policies valid (cli-org.org-baseline, default.team-policy)`);
  });

  it('reports every problem on its own line with file:line, and exits 1', async () => {
    const r = await runCli(['policy', 'validate', '-f', BAD]);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      `${BAD}:14: detection.injection_detected.ban_substrings: enforcement mode 'superset' applies to lists only; got "ignore previous"`,
      `${BAD}:25: detection.injection_score.threshold: enforcement mode 'ceiling' set by policy 'cli-org.org-baseline' requires a value <= 0.8; got 0.95`,
      `${BAD}:27: responseRules[0] block-unknown: made_up_score: no registered auditor declares this claim`,
      expect.stringMatching(
        new RegExp(
          `^${BAD}:34: default\\.loose/typo: .*attribute \`injection_scor\` .* not found \\(did you mean \`injection_score\`\\?\\)$`,
        ),
      ),
      `${BAD}:45: cedar: does not parse: unexpected token \`}\``,
      `${BAD}:56: /spec/detection/injection_score/threshold/enforcement: must be equal to one of the allowed values (one of unlocked, exact, floor, ceiling, superset)`,
    ]);
  });

  it('gives the problems as data with -o json', async () => {
    const r = await runCli(['-o', 'json', 'policy', 'validate', '-f', BAD]);
    expect(r.status).toBe(1);
    const body = JSON.parse(r.stdout) as { valid: boolean; problems: { line: number }[] };
    expect(body.valid).toBe(false);
    expect(body.problems.map((p) => p.line)).toEqual([14, 25, 27, 34, 45, 56]);
  });

  it('answers invalid YAML, a missing file and an unknown flag with one line and exit 2', async () => {
    const yaml = await runCli(['policy', 'validate', '-f', join(FIXTURES, 'invalid-yaml.yaml')]);
    expect(yaml.status).toBe(2);
    expect(yaml.stdout).toMatch(/invalid-yaml\.yaml:8: invalid YAML: /);
    const missing = await runCli(['policy', 'validate', '-f', join(FIXTURES, 'nope.yaml')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^platform: cannot read .*nope\.yaml: ENOENT; check the -f path\n$/);
    const flag = await runCli(['policy', 'validate', '-f', GOOD, '--frobnicate']);
    expect(flag.status).toBe(2);
    expect(oneLine(flag)).toBe(true);
    expect(flag.stderr).toContain("unknown option '--frobnicate'");
  });
});

describe('platform policy test --claims', () => {
  it('decides every fixture of a directory and shows its reasons: all as expected, exit 0', async () => {
    const r = await runCli(['policy', 'test', '-f', GOOD, '--claims', join(FIXTURES, 'claims')]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const rows = r.stdout.split('\n');
    expect(rows[0]).toMatch(/^NAME\s+DECISION\s+EXPECT\s+RESULT\s+DECIDED BY\s+REASONS$/);
    expect(rows).toContainEqual(
      expect.stringMatching(
        /^likely-injection\s+deny\s+deny\s+pass\s+default\.team-policy\/block-injection\s+forbid: default\.team-policy\/block-injection$/,
      ),
    );
    expect(rows).toContainEqual(
      expect.stringMatching(/^benign\s+allow\s+allow\s+pass\s+platform\/base-permit\s+-$/),
    );
    expect(rows).toContainEqual(
      expect.stringMatching(
        /^missing-claim\s+deny\s+deny\s+pass\s+-\s+KeyError: claim 'input_tokens' read by policy/,
      ),
    );
    expect(r.stdout).toContain('6 fixtures, 0 not as expected (policy default.team-policy');
  });

  it('exits 1 when an expectation does not hold, naming the fixture', async () => {
    const r = await runCli([
      '-o',
      'json',
      'policy',
      'test',
      '-f',
      GOOD,
      '--claims',
      join(FIXTURES, 'claims-mismatch.yaml'),
    ]);
    expect(r.status).toBe(1);
    const body = JSON.parse(r.stdout) as { failed: number; fixtures: Record<string, unknown>[] };
    expect(body.failed).toBe(1);
    expect(body.fixtures).toContainEqual({
      name: 'borderline-expected-allow',
      decision: 'deny',
      expect: 'allow',
      result: 'FAIL',
      decided_by: ['default.team-policy/block-injection'],
      reasons: ['forbid: default.team-policy/block-injection'],
    });
  });

  it('stops at an invalid policy file, and asks for --claims or --replay', async () => {
    const r = await runCli(['policy', 'test', '-f', BAD, '--claims', join(FIXTURES, 'claims')]);
    expect(r.status).toBe(1); // the file is invalid: its problems, then the note
    expect(r.stderr).toContain('the policy file is not valid');
    const none = await runCli(['policy', 'test', '-f', GOOD]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('give --claims <fixtures> or --replay <agent|workspace>');
  });
});

describe('platform policy push', () => {
  const TEAM = (): string => `${ns.name}.team-policy`;

  it('creates the policy through /v1/policies, then leaves it unchanged', async () => {
    const args = ['policy', 'push', '-f', GOOD, '-n', ns.name, '--policy', 'team-policy'];
    const first = await cli(args);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(`policy ${TEAM()} created (version 1)`);
    const stored = await fx.call('GET', `/v1/policies/${TEAM()}`, { key: fx.keys.org_admin });
    expect(stored.body).toMatchObject({
      id: TEAM(),
      version: '1',
      spec: { scope: 'workspace', scopeId: 'team' },
    });
    const again = await cli(args);
    expect(again.stdout.trim()).toBe(`policy ${TEAM()} unchanged (version 1)`);
  });

  it('shows a 422 with the detail the API gives, as it is, and exits 1', async () => {
    const spec = {
      scope: 'workspace',
      scopeId: 'team',
      responseRules: [{ name: 'block-unknown', claim: 'made_up_score', threshold: 0.5, decision: 'deny' }],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'cli-policy-')), 'refused.yaml');
    writeFileSync(
      file,
      stringify({
        apiVersion: `${GROUP}/${VERSION}`,
        kind: 'AuditorPolicy',
        metadata: { name: 'refused', namespace: ns.name },
        spec,
      }),
    );
    const direct = await fx.call('POST', '/v1/policies', {
      key: fx.keys.org_admin,
      body: { id: `${ns.name}.refused`, spec },
    });
    expect(direct.status).toBe(422);
    const r = await cli(['policy', 'push', '-f', file]);
    expect(r.status).toBe(1);
    expect(oneLine(r)).toBe(true);
    expect(r.stderr).toBe(`platform: POST /v1/policies: 422: ${direct.body.detail}\n`);
  });

  it('answers wrong credentials with the login hint (exit 3) and an unreachable server with exit 4', async () => {
    const denied = await cli(
      ['policy', 'push', '-f', GOOD, '-n', ns.name, '--policy', 'team-policy'],
      'not-a-key',
    );
    expect(denied.status).toBe(3);
    expect(denied.stderr).toMatch(/^platform: unauthorized \(401\): .*PLATFORM_API_KEY was refused/);
    const away = await runCli(['policy', 'push', '-f', GOOD, '--policy', 'team-policy'], {
      server: 'http://127.0.0.1:9',
      key: 'k',
    });
    expect(away.status).toBe(4);
    expect(away.stderr).toMatch(/^platform: cannot reach the Verifier at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('platform policy test --replay', () => {
  let agentId = '';

  beforeAll(async () => {
    agentId = await fx.createAgent('replayed');
    const key = await agentGatewayKey(fx, agentId, true);
    const attester = mockAttester();
    const calls = [
      { id: 'benign', injectionScore: 0.1, decision: 'allow' as const },
      // Allowed under the default policy (Balanced: injection_detected), denied by the team's score rule.
      { id: 'borderline', injectionScore: 0.62, decision: 'allow' as const },
      // Denied by an earlier, stricter policy; the team policy allows it.
      {
        id: 'was-denied',
        injectionScore: 0.2,
        decision: 'deny' as const,
        reasons: ['forbid: old.policy/strict'],
      },
      { id: 'toxic', injectionScore: 0.05, toxic: true, decision: 'deny' as const },
    ];
    for (const c of calls) {
      const ev = await gatewayEvidence(attester, `${ns.name}-${c.id}`, agentId, c);
      const r = await fx.call('POST', '/v1/evidence', { key, body: ev });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  });

  it('shows which recorded calls would change decision and why, with a summary', async () => {
    const r = await cli([
      'policy',
      'test',
      '-f',
      GOOD,
      '-n',
      ns.name,
      '--policy',
      'team-policy',
      '--replay',
      agentId,
      '--since',
      '1h',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EVIDENCE\s+TIME\s+AGENT\s+PHASE\s+OLD → NEW\s+WHY$/);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${ns.name}-borderline\\s+\\S+Z\\s+${agentId.replace('.', '\\.')}\\s+request\\s+allow → deny\\s+forbid: ${ns.name}\\.team-policy/block-injection$`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${ns.name}-was-denied\\s+.*deny → allow\\s+no longer: forbid: old\\.policy/strict \\(allowed by platform/base-permit\\)$`,
        ),
      ),
    );
    expect(
      lines.filter((l) => l.startsWith(`${ns.name}-benign`) || l.startsWith(`${ns.name}-toxic`)),
    ).toEqual([]);
    expect(lines[lines.length - 1]).toBe(
      `4 Evidence of ${agentId} replayed under ${ns.name}.team-policy: 2 would change (1 allow → deny, 1 deny → allow)`,
    );
  });

  it('replays every agent of a workspace, as data with -o json, pushing nothing', async () => {
    const before = await fx.call('GET', `/v1/policies/${ns.name}.team-policy`, { key: fx.keys.org_admin });
    const r = await cli([
      '-o',
      'json',
      'policy',
      'test',
      '-f',
      GOOD,
      '-n',
      ns.name,
      '--policy',
      'team-policy',
      '--replay',
      ns.name,
      '--since',
      '2h',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      agents: string[];
      replayed: number;
      changes: { evidence_id: string; old: string; new: string; reasons: string[] }[];
    };
    expect(report.agents).toEqual([agentId]);
    expect(report.replayed).toBe(4);
    expect(report.changes.map((c) => [c.evidence_id, c.old, c.new])).toEqual([
      [`${ns.name}-borderline`, 'allow', 'deny'],
      [`${ns.name}-was-denied`, 'deny', 'allow'],
    ]);
    const after = await fx.call('GET', `/v1/policies/${ns.name}.team-policy`, { key: fx.keys.org_admin });
    expect(after.body.version).toBe(before.body.version);
  });

  it('refuses a malformed --since with exit 2', async () => {
    const r = await cli([
      'policy',
      'test',
      '-f',
      GOOD,
      '--policy',
      'team-policy',
      '--replay',
      agentId,
      '--since',
      'yesterday',
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("platform: invalid --since 'yesterday'; use a duration such as 30m, 24h or 7d\n");
  });
});
