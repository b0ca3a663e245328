// Writes a kubeconfig with the admin client certificate embedded.
import { stringify } from 'yaml';
import type { ControlPlaneCerts } from './certs.ts';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

export function buildKubeconfig(server: string, certs: ControlPlaneCerts, name = 'platform-local'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'certificate-authority-data': b64(certs.ca.certPem) } }],
    users: [
      {
        name: 'platform-admin',
        user: {
          'client-certificate-data': b64(certs.admin.certPem),
          'client-key-data': b64(certs.admin.keyPem),
        },
      },
    ],
    contexts: [{ name, context: { cluster: name, user: 'platform-admin' } }],
    'current-context': name,
  });
}
