// The install path a user takes, on the real node, once per install variant
// (test/install/variants.ts: `kubectl apply -k` of the dev overlay, then
// `helm install` of the chart with values-dev.yaml, both with the locally
// built images and test/fixtures/install's additions): the three roles
// running as pods, `kubectl apply -f config/samples/`, agent pods admitted with
// their auditor sidecars and running, one governed call through an agent pod
// to signed Evidence at the installed Verifier, then the uninstall, leaving
// nothing of the platform behind for the next variant.
import { describe, it } from 'vitest';
import { governsACall, installsTheRoles, runsTheSamples, uninstallsCleanly } from './steps.ts';
import { VARIANTS } from './variants.ts';

describe.each(VARIANTS)('$title installed on the real node ($installs)', (variant) => {
  it('runs the three roles from the local image: the operator with 2 replicas and a leader, the webhook with its own certificate', async () => {
    await installsTheRoles(variant);
  });

  it('runs the samples: every agent pod admitted with its sidecars and running', async () => {
    await runsTheSamples();
  });

  it('governs a call through an agent pod: allowed, answered by the model, signed Evidence at the Verifier', async () => {
    await governsACall();
  });

  it('uninstalls cleanly: the samples, then the platform', async () => {
    await uninstallsCleanly(variant);
  });
});
