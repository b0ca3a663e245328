// The operator's keyring, loaded in the background and retried with backoff:
// an unreachable keyring Secret delays OAuth client records (condition
// CredentialsReady=False, KeyringUnavailable) but never stops the operator.
import type * as k8s from '@kubernetes/client-node';
import type { Keyring } from '../base/crypto/envelope.ts';
import { loadKeyring } from '../base/crypto/keyring-source.ts';
import type { Logger } from '../base/log.ts';
import { apiErrorLine } from '../base/api-errors.ts';

export interface KeyringHolder {
  /** `loading` until the first attempt ends (then either a keyring or an error). */
  current: () => { keyring?: Keyring; error: string; loading: boolean };
  stop: () => void;
}

export function holdKeyring(
  kc: k8s.KubeConfig,
  settings: { keyringFile?: string; keyringSecret: string },
  log: Logger,
  onLoaded: () => void,
): KeyringHolder {
  let keyring: Keyring | undefined;
  let error = 'the keyring is loading';
  let loading = true;
  let timer: NodeJS.Timeout | undefined;
  let delayMs = 500;
  const [namespace = '', name = ''] = settings.keyringSecret.split('/');
  const attempt = (): void => {
    loadKeyring({ file: settings.keyringFile, secret: { namespace, name } }, kc).then(
      (k) => {
        keyring = k;
        error = '';
        loading = false;
        log.info({ source: settings.keyringFile ?? settings.keyringSecret }, 'keyring loaded');
        onLoaded();
      },
      (err: unknown) => {
        error = apiErrorLine(err);
        loading = false;
        log.warn({ err: error, retryInMs: delayMs }, 'keyring unavailable; retrying');
        timer = setTimeout(attempt, delayMs);
        timer.unref();
        delayMs = Math.min(delayMs * 2, 60_000);
      },
    );
  };
  attempt();
  return { current: () => ({ keyring, error, loading }), stop: () => clearTimeout(timer) };
}
