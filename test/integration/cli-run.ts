// Runs the `platform` binary as a user would: a child process of its own
// (asynchronous, so an API served by the test process itself can answer),
// with the CLI's environment cleared of the machine's settings and a config
// file in a temporary directory unless the test gives one.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';

export const PLATFORM_BIN = join(REPO_ROOT, 'bin', 'platform.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to the cleared environment. */
  env?: Record<string, string>;
  /** Written to standard input, which is then closed. */
  input?: string;
  timeoutMs?: number;
}

/** Variables of the developer's shell that would change what the CLI does. */
const CLEARED = ['PLATFORM_API_KEY', 'PLATFORM_SERVER', 'PLATFORM_CONFIG', 'XDG_CONFIG_HOME', 'KUBECONFIG'];

function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CLEARED) delete env[k];
  env.PLATFORM_CONFIG = join(mkdtempSync(join(tmpdir(), 'platform-cli-')), 'config.yaml');
  return { ...env, ...extra };
}

/** `platform <args…>`: resolves when it exits (a timeout kills it and fails). */
export function runCli(args: readonly string[], o: CliOptions = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [PLATFORM_BIN, ...args], {
    cwd: REPO_ROOT,
    env: cliEnv(o.env ?? {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  child.stdin.end(o.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `platform ${args.join(' ')} did not exit in ${o.timeoutMs ?? 50_000} ms; stderr: ${stderr}`,
        ),
      );
    }, o.timeoutMs ?? 50_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The non-empty lines of a stream. */
export const linesOf = (text: string): string[] => text.split('\n').filter((l) => l !== '');
