// Runs `node bin/platform.js run operator` (or another role) as a child
// process against the test control plane, scoped to one namespace, and reads
// its logs and Prometheus metrics. Every process started here is killed in afterAll.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, inject } from 'vitest';
import { eventually } from './harness.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const started = new Set<OperatorProcess>();

afterAll(async () => {
  await Promise.all([...started].map((p) => p.stop()));
});

export interface LogLine {
  msg?: string;
  level?: string;
  [key: string]: unknown;
}

export class OperatorProcess {
  readonly logs: LogLine[] = [];
  readonly exited: Promise<number | null>;
  port = 0;

  constructor(
    readonly identity: string,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    createInterface({ input: child.stdout! }).on('line', (line) => this.onLine(line));
    createInterface({ input: child.stderr! }).on('line', (line) =>
      this.logs.push({ msg: line, level: 'stderr' }),
    );
  }

  private onLine(line: string): void {
    try {
      const entry = JSON.parse(line) as LogLine;
      this.logs.push(entry);
      if (entry.msg?.startsWith('ops endpoints listening')) this.port = Number(entry.port);
    } catch {
      this.logs.push({ msg: line });
    }
  }

  hasLogged(msg: string): boolean {
    return this.logs.some((l) => l.msg === msg);
  }

  async get(path: string): Promise<{ status: number; body: string }> {
    const res = await fetch(`http://127.0.0.1:${this.port}${path}`);
    return { status: res.status, body: await res.text() };
  }

  /** Sum of a metric's samples whose labels include `labels`. */
  async metric(name: string, labels: Record<string, string> = {}): Promise<number> {
    const { body } = await this.get('/metrics');
    let sum = 0;
    for (const line of body.split('\n')) {
      const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
      if (!m || m[1] !== name) continue;
      const text = m[2] ?? '';
      if (Object.entries(labels).every(([k, v]) => text.includes(`${k}="${v}"`))) sum += Number(m[3]);
    }
    return sum;
  }

  async isLeader(): Promise<boolean> {
    return (await this.metric('platform_leader_is_leader')) === 1;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL after 10 s. */
  async stop(): Promise<void> {
    this.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
    started.delete(this);
  }

  describe(): string {
    return this.logs
      .slice(-20)
      .map((l) => JSON.stringify(l))
      .join('\n');
  }
}

export interface StartOperatorOptions {
  namespace: string;
  identity: string;
  env?: Record<string, string>;
}

/** Starts an operator process and waits until its ops server listens. */
export async function startOperator(options: StartOperatorOptions): Promise<OperatorProcess> {
  return startRole('operator', options.identity, {
    PLATFORM_OPERATOR_METRICS_PORT: '0',
    PLATFORM_WATCH_NAMESPACE: options.namespace,
    PLATFORM_LEADER_ELECTION_NAMESPACE: options.namespace,
    PLATFORM_OPERATOR_IDENTITY: options.identity,
    // No platform webhook runs for these files, so no pod is ever injected;
    // files that run one (agent-injection) turn the check back on.
    PLATFORM_AGENT_REQUIRE_INJECTION: 'false',
    ...options.env,
  });
}

/** Starts `platform run <role>` against the test control plane and waits until its ops server listens. */
export async function startRole(
  role: string,
  identity: string,
  env: Record<string, string>,
  listenTimeoutMs = 30_000,
): Promise<OperatorProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'platform.js'), 'run', role], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: inject('kubeconfigPath'), LOG_LEVEL: 'info', ...env },
  });
  const proc = new OperatorProcess(identity, child);
  started.add(proc);
  await eventually(
    () => {
      if (child.exitCode !== null)
        throw new Error(`${role} exited with ${child.exitCode}:\n${proc.describe()}`);
      return proc.port > 0 ? true : undefined;
    },
    `${role} ${identity} to listen`,
    listenTimeoutMs,
  );
  return proc;
}
