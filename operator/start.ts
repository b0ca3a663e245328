// `npm start`: the whole system on one machine. Uses $KUBECONFIG when set,
// otherwise boots the local control plane (building it on first use); installs
// the CRDs; runs the operator, webhook and api roles as child processes; prints
// where everything is. Ctrl-C stops everything cleanly.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '../hack/control-plane/control-plane.ts';
import { HACK_DIR, REPO_ROOT, findBinary } from '../hack/control-plane/paths.ts';
import { createUnlessExists, installCrds, k8s, loadKubeConfig, serverVersion } from './kube.ts';
import { registerLocalWebhooks } from './local-webhooks.ts';
import { ROLES } from './roles.ts';

const SYSTEM_ROLES = ['operator', 'webhook', 'api'] as const;
/** The operator's own namespace, as `config/manager` deploys it. */
const PLATFORM_NAMESPACE = process.env.PLATFORM_NAMESPACE ?? 'platform-system';
const WEBHOOK_PORT = Number(process.env.PLATFORM_WEBHOOK_PORT ?? 9443);
const API_PORT = Number(process.env.PLATFORM_API_PORT ?? 8000);
const BOOTSTRAP_SECRET = process.env.PLATFORM_API_BOOTSTRAP_SECRET ?? 'platform-api-bootstrap';
const say = (line: string): void => void process.stdout.write(`[start] ${line}\n`);

function ensureControlPlaneBinaries(): void {
  if (findBinary('kube-apiserver') && findBinary('kube-controller-manager')) return;
  say('building the local control plane (first run only; needs Go)...');
  const res = spawnSync('bash', [join(HACK_DIR, 'build-control-plane.sh')], { stdio: 'inherit' });
  if (res.status !== 0) {
    throw new Error(
      'the local control plane could not be built; set KUBECONFIG to an existing cluster instead',
    );
  }
}

function startRole(role: string, kubeconfigPath: string): ChildProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'platform.js'), 'run', role], {
    env: {
      ...process.env,
      KUBECONFIG: kubeconfigPath,
      PLATFORM_NAMESPACE,
      PLATFORM_LEADER_ELECTION_NAMESPACE: PLATFORM_NAMESPACE,
      // The webhook is reached by URL on loopback, so its certificate names 127.0.0.1.
      PLATFORM_WEBHOOK_PORT: String(WEBHOOK_PORT),
      PLATFORM_WEBHOOK_EXTRA_SANS: '127.0.0.1,localhost',
      // Locally, auditor images are not digest-pinned: warn instead of reject.
      PLATFORM_STRICT_NOTARIZATION: process.env.PLATFORM_STRICT_NOTARIZATION ?? 'false',
      PLATFORM_API_PORT: String(API_PORT),
      PLATFORM_API_NAMESPACE: PLATFORM_NAMESPACE,
      PLATFORM_VERIFIER_URL: process.env.PLATFORM_VERIFIER_URL ?? `http://127.0.0.1:${API_PORT}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) say(`role ${role} exited (${signal ?? code}); stopping`);
    void stopAll(1);
  });
  return child;
}

let stopping = false;
const children: ChildProcess[] = [];
let plane: ControlPlane | undefined;

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
  await plane?.stop();
  say('stopped');
  process.exit(exitCode);
}

async function ensureNamespace(kc: k8s.KubeConfig, name: string): Promise<void> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  await createUnlessExists(core.createNamespace({ body: { metadata: { name } } }));
}

async function main(): Promise<void> {
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));
  let kubeconfigPath = process.env.KUBECONFIG;
  if (kubeconfigPath) {
    say(`using the cluster in KUBECONFIG=${kubeconfigPath}`);
  } else {
    ensureControlPlaneBinaries();
    const started = Date.now();
    plane = await startControlPlane({ log: say });
    // A stable path for kubectl, outside the temp dir that is removed on stop.
    mkdirSync(join(REPO_ROOT, '.platform'), { recursive: true });
    kubeconfigPath = join(REPO_ROOT, '.platform', 'kubeconfig');
    copyFileSync(plane.kubeconfigPath, kubeconfigPath);
    say(`local control plane ready in ${Date.now() - started} ms at ${plane.server}`);
  }
  const kc = loadKubeConfig(kubeconfigPath);
  say(`kube-apiserver ${await serverVersion(kc)}`);
  const crds = await installCrds(kc);
  say(`installed ${crds.length} CRDs`);
  await ensureNamespace(kc, PLATFORM_NAMESPACE);
  const roles = SYSTEM_ROLES.filter((r) => r in ROLES);
  if (roles.includes('webhook') && plane) {
    const names = await registerLocalWebhooks(kc, join(REPO_ROOT, 'config'), WEBHOOK_PORT);
    say(`registered ${names.join(', ')} at https://127.0.0.1:${WEBHOOK_PORT}`);
  }
  for (const role of roles) children.push(startRole(role, kubeconfigPath));
  say(`running roles: ${roles.join(', ')}`);
  say(`kubectl:  kubectl --kubeconfig ${kubeconfigPath} get crds`);
  say(`          kubectl --kubeconfig ${kubeconfigPath} get platform -A`);
  if (roles.includes('api')) {
    say(`API:      http://127.0.0.1:${API_PORT}  (OpenAPI at /openapi.json)`);
    say(
      `admin key: kubectl --kubeconfig ${kubeconfigPath} -n ${PLATFORM_NAMESPACE} get secret ${BOOTSTRAP_SECRET} ` +
        "-o jsonpath='{.data.api-key}' | base64 -d",
    );
  }
  say('Ctrl-C stops everything.');
}

main().catch((err: unknown) => {
  process.stderr.write(`[start] ${(err as Error).message}\n`);
  void stopAll(1);
});
