// The init container's redirect rules, for real: the script from
// `redirectScript()` runs in a fresh network namespace (`ip netns`, needs root,
// iproute2 and iptables); the agent's UID reaches the gateway and the proxy,
// the sidecar UID goes straight out and so cannot loop.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIDECAR_UID } from '../../webhooks/constants.ts';
import { redirectScript } from '../../webhooks/mutate/redirect.ts';

const run = promisify(execFile);
const NETNS = `pf-redirect-${randomBytes(3).toString('hex')}`;
const AGENT_UID = 1000;
const MODEL = '10.200.0.9';
const ELSEWHERE = '10.200.1.7';
const ELSEWHERE6 = 'fd00:200::7';
const dir = tmpdir();
const serverScript = join(dir, `${NETNS}-servers.mjs`);
const clientScript = join(dir, `${NETNS}-client.mjs`);
let servers: ChildProcess | undefined;

const SERVERS = `
import { createServer } from 'node:net';
const listeners = [['gateway', '::', 8099], ['proxy', '::', 8088], ['model', '${MODEL}', 443], ['elsewhere', '${ELSEWHERE}', 80], ['elsewhere6', '${ELSEWHERE6}', 80]];
let ready = 0;
for (const [name, host, port] of listeners) {
  createServer((s) => s.end(name)).listen(port, host, () => { if (++ready === listeners.length) console.log('ready'); });
}
`;
const CLIENT = `
import { connect } from 'node:net';
const s = connect({ host: process.argv[2], port: Number(process.argv[3]) });
let out = '';
s.on('data', (d) => (out += d));
s.on('end', () => { process.stdout.write(out); });
s.on('error', (e) => { process.stdout.write('error:' + e.code); });
setTimeout(() => { process.stdout.write('error:timeout'); process.exit(0); }, 5000).unref();
`;

const inNs = (...args: string[]): Promise<{ stdout: string }> => run('ip', ['netns', 'exec', NETNS, ...args]);

/** Connects from inside the namespace as `uid`; returns the name of the server that answered. */
async function reach(uid: number, host: string, port: number): Promise<string> {
  const { stdout } = await inNs(
    'setpriv',
    `--reuid=${uid}`,
    `--regid=${uid}`,
    '--clear-groups',
    process.execPath,
    clientScript,
    host,
    String(port),
  );
  return stdout;
}

const script = redirectScript({
  gatewayPort: 8099,
  proxyPort: 8088,
  sidecarUid: SIDECAR_UID,
  modelCidrs: ['10.200.0.0/24'],
  modelPorts: [],
});

beforeAll(async () => {
  writeFileSync(serverScript, SERVERS, { mode: 0o644 });
  writeFileSync(clientScript, CLIENT, { mode: 0o644 });
  await run('ip', ['netns', 'add', NETNS]);
  await inNs('ip', 'link', 'set', 'lo', 'up');
  // The "remote" hosts are local addresses: locally generated traffic to them still passes nat OUTPUT.
  await inNs('ip', 'addr', 'add', `${MODEL}/32`, 'dev', 'lo');
  await inNs('ip', 'addr', 'add', `${ELSEWHERE}/32`, 'dev', 'lo');
  await inNs('ip', '-6', 'addr', 'add', `${ELSEWHERE6}/128`, 'dev', 'lo', 'nodad');
  servers = spawn('ip', ['netns', 'exec', NETNS, process.execPath, serverScript], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    servers?.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    servers?.once('exit', (code) => reject(new Error(`servers exited with ${code}`)));
  });
  await inNs('sh', '-c', script);
});

afterAll(async () => {
  servers?.kill();
  await run('ip', ['netns', 'del', NETNS]).catch(() => undefined);
  rmSync(serverScript, { force: true });
  rmSync(clientScript, { force: true });
});

describe('init container redirect rules in a network namespace', () => {
  it("sends the agent's model traffic to the gateway port", async () => {
    expect(await reach(AGENT_UID, MODEL, 443)).toBe('gateway');
  });

  it("sends the agent's other egress to the credential proxy", async () => {
    expect(await reach(AGENT_UID, ELSEWHERE, 80)).toBe('proxy');
  });

  it("sends the agent's IPv6 egress to the proxy too, so IPv6 is no way around the sidecars", async () => {
    expect(await reach(AGENT_UID, ELSEWHERE6, 80)).toBe('proxy');
    expect(await reach(SIDECAR_UID, ELSEWHERE6, 80)).toBe('elsewhere6');
  });

  it('leaves loopback alone, so the agent can call the gateway directly', async () => {
    expect(await reach(AGENT_UID, '127.0.0.1', 8099)).toBe('gateway');
    expect(await reach(AGENT_UID, '127.0.0.1', 8088)).toBe('proxy');
  });

  it('exempts the sidecar UID: the gateway reaches the model and the proxy the destination, no loop', async () => {
    expect(await reach(SIDECAR_UID, MODEL, 443)).toBe('model');
    expect(await reach(SIDECAR_UID, ELSEWHERE, 80)).toBe('elsewhere');
  });

  it('installs the same rules when run twice (an init container may restart)', async () => {
    const rules = async (): Promise<string> => (await inNs('iptables', '-t', 'nat', '-S')).stdout;
    const once = await rules();
    await inNs('sh', '-c', script);
    expect(await rules()).toBe(once);
    expect(once).toContain(`-A PLATFORM_OUTPUT -m owner --uid-owner ${SIDECAR_UID} -j RETURN`);
  });
});
