// Starts the whole system once per e2e run, as `npm start` does: a local
// control plane with a real node (or the cluster in PLATFORM_TEST_KUBECONFIG),
// the images built and imported, and the operator, webhook, api and model
// roles with leader election on. Never skips: without a node the run fails
// and says why.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareLocalImages } from '../../hack/images/local.ts';
import { startSystem, type RunningSystem } from '../../hack/system/system.ts';
import type { LocalTopology } from '../../hack/system/roles.ts';
import { startOidcIssuer, type RunningOidcIssuer } from '../fixtures/oidc-issuer.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eKubeconfig: string;
    e2eTopology: LocalTopology;
    e2eLogDir: string;
    /** The users' OIDC issuer the Verifier trusts: its URL and signing key (tests sign user tokens). */
    e2eOidc: { url: string; privateJwk: Record<string, unknown> };
  }
}

let system: RunningSystem | undefined;
let oidc: RunningOidcIssuer | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const logDir = mkdtempSync(join(tmpdir(), 'platform-e2e-'));
  const say = (line: string): void => console.log(`[e2e] ${line}`);
  const kubeconfig = process.env.PLATFORM_TEST_KUBECONFIG;
  // The Verifier accepts this issuer's user tokens (subject tokens of token exchange); the roles
  // inherit this process's environment.
  oidc = await startOidcIssuer();
  Object.assign(process.env, oidc.env());
  system = await startSystem({
    ...(kubeconfig ? { kubeconfig } : {}),
    prepareImages: () => prepareLocalImages(say),
    roleOutput: { dir: logDir },
    log: say,
    onRoleExit: (role, code, signal) => say(`role ${role} exited (${signal ?? code}); logs in ${logDir}`),
  });
  if (!kubeconfig && !system.topology.node) {
    const reason = system.noNodeReason ?? 'unknown';
    await system.stop();
    await oidc.close();
    throw new Error(`the e2e suite needs a node and none could start: ${reason}`);
  }
  say(`system ready in ${Date.now() - started} ms; role logs in ${logDir}`);
  project.provide('e2eKubeconfig', system.kubeconfigPath);
  project.provide('e2eTopology', system.topology);
  project.provide('e2eLogDir', logDir);
  project.provide('e2eOidc', { url: oidc.url, privateJwk: oidc.privateJwk });
  return async () => {
    await system?.stop();
    await oidc?.close();
  };
}
