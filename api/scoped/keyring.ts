// The API's hold on the keyring that encrypts scoped-credential material: the
// operator's (same file or Secret, decision 10), loaded on first use and kept;
// a failed load is tried again at the next use and answered 503 meanwhile,
// so an API without a keyring still serves everything else.
import type * as k8s from '@kubernetes/client-node';
import type { Keyring } from '../../base/crypto/envelope.ts';
import { loadKeyring } from '../../base/crypto/keyring-source.ts';
import { HttpError } from '../../base/http-error.ts';
import type { Logger } from '../../base/log.ts';

export type KeyringAccess = () => Promise<Keyring>;

export function lazyKeyring(
  kc: k8s.KubeConfig,
  settings: { keyringFile?: string; keyringSecret: string },
  log: Logger,
): KeyringAccess {
  let loaded: Promise<Keyring> | undefined;
  const [namespace = '', name = ''] = settings.keyringSecret.split('/');
  return async () => {
    loaded ??= loadKeyring({ file: settings.keyringFile, secret: { namespace, name } }, kc);
    try {
      return await loaded;
    } catch (err) {
      loaded = undefined;
      log.warn({ err: String((err as Error)?.message ?? err) }, 'keyring unavailable');
      throw new HttpError(
        503,
        'the keyring that encrypts credentials is unavailable; try again later',
        'keyring_unavailable',
      );
    }
  };
}
