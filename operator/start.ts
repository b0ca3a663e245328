// `npm start`: the whole system on one machine (hack/system). Uses $KUBECONFIG
// when set; otherwise a local control plane with a real node when this machine
// can run one. Prints where everything is and how to see a governed call.
// Ctrl-C stops everything and leaves nothing behind.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, findBinary } from '../hack/control-plane/paths.ts';
import { startSystem, StartRefused, type RunningSystem } from '../hack/system/system.ts';
import { modelBaseUrl, verifierUrl } from '../hack/system/roles.ts';

const say = (line: string): void => void process.stdout.write(`[start] ${line}\n`);
// Whoever reads our output may go away first (a closed terminal, npm killed by
// the same Ctrl-C): a write error must not cut the cleanup short.
process.stdout.on('error', () => undefined);
process.stderr.on('error', () => undefined);
let system: RunningSystem | undefined;
let stopping = false;

async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  await system?.stop();
  say('stopped');
  process.exit(exitCode);
}

async function loadImagePreparer(): Promise<(() => Promise<(socket: string) => Promise<void>>) | undefined> {
  const { prepareLocalImages } = await import('../hack/images/local.ts');
  return () => prepareLocalImages(say);
}

function printNextSteps(s: RunningSystem, kubeconfig: string): void {
  // kubectl built with the local cluster, when none is on PATH.
  const onPath = (process.env.PATH ?? '').split(':').some((d) => d && existsSync(join(d, 'kubectl')));
  const k = `${onPath ? 'kubectl' : (findBinary('kubectl') ?? 'kubectl')} --kubeconfig ${kubeconfig}`;
  const ns = s.topology.namespace;
  say(`kubectl:   ${k} get nodes,crds`);
  say(`           ${k} apply -f config/samples/`);
  say(`           ${k} get platform -A`);
  say(`API:       ${verifierUrl(s.topology)}  (OpenAPI at /openapi.json)`);
  say(`UI:        ${verifierUrl(s.topology)}/ui/  (sign in with the admin key below)`);
  say(`model:     ${modelBaseUrl(s.topology)}`);
  say(`admin key: ${k} -n ${ns} get secret platform-api-bootstrap -o jsonpath='{.data.api-key}' | base64 -d`);
  if (s.topology.node) {
    say('a governed call, after applying the samples (docs/quickstart.md):');
    say(`  1. ${k} wait --for=condition=Ready platformagent/release-bot --timeout=180s`);
    say(`  2. ${k} exec agent-release-bot -c agent -- platform ask "What is 2+2?"`);
    say(`  3. ${k} get platformagent release-bot -o jsonpath='{.status.passport}'`);
  }
  say('Ctrl-C stops everything.');
}

async function main(): Promise<void> {
  // `on`, not `once`: a terminal's Ctrl-C reaches this process and also comes relayed by npm and
  // tsx; a second SIGINT must not take the default action and kill it half-way through cleaning up.
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  const started = Date.now();
  const kubeconfig = process.env.KUBECONFIG;
  if (kubeconfig) say(`using the cluster in KUBECONFIG=${kubeconfig}`);
  system = await startSystem({
    ...(kubeconfig ? { kubeconfig } : {}),
    ...(process.env.PLATFORM_NODE === 'off' ? { node: 'off' as const } : {}),
    prepareImages: await loadImagePreparer(),
    log: say,
    onRoleExit: (role, code, signal) => {
      say(`role ${role} exited (${signal ?? code}); stopping`);
      void stopAll(1);
    },
  });
  let path = system.kubeconfigPath;
  if (!kubeconfig) {
    // A stable path for kubectl, outside the temp dir removed on stop.
    mkdirSync(join(REPO_ROOT, '.platform'), { recursive: true });
    path = join(REPO_ROOT, '.platform', 'kubeconfig');
    copyFileSync(system.kubeconfigPath, path);
  }
  say(`running roles: ${[...system.roles.keys()].join(', ')}`);
  printNextSteps(system, path);
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((err: unknown) => {
  process.stderr.write(`[start] ${(err as Error).message}\n`);
  if (err instanceof StartRefused) {
    stopping = true;
    process.exit(2);
  }
  void stopAll(1);
});
