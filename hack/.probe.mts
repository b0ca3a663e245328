import { startControlPlane } from './control-plane/control-plane.ts';
import { request } from 'node:https';
const plane = await startControlPlane({ log: () => undefined, controllerManager: false });
const body: string = await new Promise((resolve) => {
  const req = request(`${plane.server}/metrics`, { ca: plane.certs.ca.certPem, cert: plane.certs.admin.certPem, key: plane.certs.admin.keyPem }, (res) => {
    let b = ''; res.on('data', (c) => (b += c)); res.on('end', () => resolve(b));
  });
  req.end();
});
console.log(body.split('\n').filter((l) => l.includes('flowcontrol_dispatched') || l.includes('apiserver_request_total{')).slice(0, 8).join('\n'));
await plane.stop();
