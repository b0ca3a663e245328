// Starts what an install needs once per run: a local control plane with the
// real node (hack/control-plane, hack/node) whose pods are in-cluster clients
// (the `kubernetes` Service reaches the apiserver, Service names resolve), and
// the locally built images (hack/images) imported into the node's containerd.
// No platform role runs on the host: the test installs them into the cluster
// (with kubectl, then with the pinned helm of hack/build-helm.sh).
// Never skips: without a node the run fails and says why.
import type { TestProject } from 'vitest/node';
import { startControlPlane, type ControlPlane } from '../../hack/control-plane/control-plane.ts';
import { findHelm } from '../../hack/chart/source.ts';
import { prepareLocalImages } from '../../hack/images/local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    installKubeconfig: string;
  }
}

let plane: ControlPlane | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const say = (line: string): void => console.log(`[install] ${line}`);
  // The Helm variant needs it: say so before the node starts, not after the first variant.
  if (!findHelm()) throw new Error('helm is not built: run bash hack/build-helm.sh (npm test does)');
  const loadImages = await prepareLocalImages(say);
  plane = await startControlPlane({ log: say, node: { loadImages }, inClusterClients: true });
  say(`control plane and node ready in ${Date.now() - started} ms`);
  project.provide('installKubeconfig', plane.kubeconfigPath);
  return async () => {
    await plane?.stop();
  };
}
