// The two ways a user installs the platform, each with the local-test
// additions (test/fixtures/install): `kubectl apply -k` of the dev overlay,
// and `helm install` of the chart with values-dev.yaml, the local echo model
// applied beside it. Each uninstall removes all it installed (Helm never
// deletes CRDs, nor the namespace --create-namespace made: the README's steps).
import { join } from 'node:path';
import { REPO_ROOT } from '../../hack/control-plane/paths.ts';
import { CHART, helm as runHelm } from '../unit/helm-chart.ts';
import { NAMESPACE, kubeconfigPath, kubectl } from './support.ts';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'install');
const LOCAL_MODEL = join(FIXTURE, 'local-model.yaml');
const RELEASE = 'platform';
const TIMEOUT = '240s';

export interface Variant {
  title: string;
  /** The install and uninstall commands, as the timings name them. */
  installs: string;
  uninstalls: string;
  install(): void;
  /** Removes what install added; the samples are gone already (the operator removed their finalizers). */
  uninstall(): void;
}

/** helm with the install cluster's kubeconfig; throws with its stderr unless it succeeds. */
function helm(args: string[]): string {
  const run = runHelm([...args, '--kubeconfig', kubeconfigPath()]);
  if (run.status !== 0) throw new Error(`helm ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}

const kustomize: Variant = {
  title: 'the dev overlay',
  installs: 'kubectl apply -k',
  uninstalls: 'kubectl delete -k',
  install: () => kubectl(['apply', '-k', FIXTURE]),
  uninstall: () => kubectl(['delete', '-k', FIXTURE, '--wait=true', `--timeout=${TIMEOUT}`]),
};

const chart: Variant = {
  title: 'the Helm chart with values-dev.yaml',
  installs: 'helm install',
  uninstalls: 'helm uninstall and kubectl delete of the CRDs and the namespace',
  install: () => {
    kubectl(['apply', '-f', LOCAL_MODEL]);
    helm([
      'install',
      RELEASE,
      CHART,
      ...['--namespace', NAMESPACE, '--create-namespace'],
      ...['-f', join(CHART, 'values-dev.yaml'), '-f', join(FIXTURE, 'values.yaml')],
    ]);
  },
  uninstall: () => {
    helm(['uninstall', RELEASE, '--namespace', NAMESPACE, '--wait', '--timeout', TIMEOUT]);
    const wait = ['--wait=true', `--timeout=${TIMEOUT}`];
    kubectl(['delete', '-f', join(CHART, 'crds'), ...wait]);
    kubectl(['delete', 'namespace', NAMESPACE, ...wait]);
    kubectl(['delete', '-f', LOCAL_MODEL, ...wait]);
  },
};

export const VARIANTS: readonly Variant[] = [kustomize, chart];
