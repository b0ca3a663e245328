// Boots the real local control plane once per integration run (or uses the
// cluster in PLATFORM_TEST_KUBECONFIG), installs the CRDs, and hands the
// kubeconfig path to the test files. Never skips: if the control plane cannot
// start, the run fails with the reason.
import type { TestProject } from 'vitest/node';
import { installCrds } from '../../crds/install.ts';
import { startControlPlane, type ControlPlane } from '../../hack/control-plane/control-plane.ts';
import { apiMessage, loadKubeConfig, serverVersion } from '../../base/kube.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kubeconfigPath: string;
  }
}

let plane: ControlPlane | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  let kubeconfigPath = process.env.PLATFORM_TEST_KUBECONFIG;
  if (!kubeconfigPath) {
    plane = await startControlPlane({ log: (line) => console.log(`[control-plane] ${line}`) });
    kubeconfigPath = plane.kubeconfigPath;
  }
  const kc = loadKubeConfig(kubeconfigPath);
  try {
    const version = await serverVersion(kc);
    const crds = await installCrds(kc);
    console.log(
      `[control-plane] kube-apiserver ${version} ready in ${Date.now() - started} ms at ${kc.getCurrentCluster()?.server}; ${crds.length} CRDs installed`,
    );
  } catch (err) {
    // Never leave a control plane behind when setup fails half-way.
    await plane?.stop();
    throw new Error(`integration setup failed: ${apiMessage(err)}`);
  }
  project.provide('kubeconfigPath', kubeconfigPath);
  return async () => {
    await plane?.stop();
  };
}
