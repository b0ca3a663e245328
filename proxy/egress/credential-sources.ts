// Where the credential proxy's injected credentials come from, each answer
// mapped to what the agent gets: the Verifier's secret-bearing routes for
// this agent (Contract C: the material of a sidecar credential, a JWT-SVID
// for another token endpoint), the pod's mounted JWT-SVID, and OAuth token
// endpoints. Errors are InjectionErrors carrying codes, never a value: 403
// when the agent may not have the credential, 502 when its source fails,
// 504 when it does not answer in time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CallError, callJson } from '../../base/http-client.ts';
import { postTokenForm, type FormTokenOutcome } from '../../base/identity/token-client.ts';
import { SVID_FILE } from '../../contract/kube.ts';
import { InjectionError } from '../../contract/egress.ts';

export interface VerifierAccess {
  verifierUrl: string;
  agentId: string;
  /** The agent's Gateway key. */
  apiKey?: string;
  timeoutMs: number;
}

export interface CredentialMaterial {
  type: string;
  value: string;
}

interface VerifierAnswer {
  status: number;
  body: Record<string, unknown>;
}

function unreachable(err: unknown, source: string, timedOut: boolean): InjectionError {
  if (timedOut) return new InjectionError(504, `${source}_timeout`, `the ${source} did not answer in time`);
  const why = err instanceof CallError ? err.code : 'network';
  return new InjectionError(502, `${source}_unreachable`, `the ${source} could not be reached (${why})`);
}

async function callVerifier(v: VerifierAccess, path: string, body?: unknown): Promise<VerifierAnswer> {
  const url = `${v.verifierUrl.replace(/\/$/, '')}/v1/agents/${encodeURIComponent(v.agentId)}${path}`;
  const headers: Record<string, string> = v.apiKey ? { authorization: `Bearer ${v.apiKey}` } : {};
  try {
    const res = await callJson(url, { headers, body, timeoutMs: v.timeoutMs, maxBytes: 1 << 20 });
    const parsed = JSON.parse(res.body.toString('utf8') || '{}') as unknown;
    const object = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    return { status: res.status, body: object };
  } catch (err) {
    if (err instanceof SyntaxError) return { status: 502, body: {} };
    throw unreachable(err, 'verifier', err instanceof CallError && err.code === 'timeout');
  }
}

const verifierRefused = (status: number, what: string): InjectionError =>
  new InjectionError(502, 'verifier_refused', `the Verifier answered ${status} for ${what}`);

/** The decrypted material of a credential the cascade gives this agent. */
export async function readCredential(v: VerifierAccess, credentialRef: string): Promise<CredentialMaterial> {
  const path = `/egress/credentials/${encodeURIComponent(credentialRef)}`;
  const { status, body } = await callVerifier(v, path);
  if (status === 200 && typeof body.value === 'string' && body.value !== '') {
    return { type: typeof body.type === 'string' ? body.type : 'api_key', value: body.value };
  }
  if (status === 404) {
    throw new InjectionError(
      403,
      'credential_not_available',
      `credential ${credentialRef} is not given to this agent`,
    );
  }
  if (status === 409) {
    throw new InjectionError(503, 'credential_pending', `credential ${credentialRef} has no material yet`);
  }
  throw verifierRefused(status, `credential ${credentialRef}`);
}

/** A JWT-SVID of this agent for `audience` (a token endpoint one of its rules names). */
export async function requestSvid(v: VerifierAccess, audience: string): Promise<string> {
  const { status, body } = await callVerifier(v, '/svid', { audience });
  if (status === 200 && typeof body.token === 'string' && body.token !== '') return body.token;
  if (status === 422) {
    throw new InjectionError(403, 'audience_not_permitted', `no JWT-SVID may be issued for ${audience}`);
  }
  throw verifierRefused(status, 'a JWT-SVID');
}

/** The pod's mounted JWT-SVID, read on each use so a renewed one is picked up. */
export async function readMountedSvid(svidDir: string | undefined): Promise<string> {
  const svid = svidDir ? await readFile(join(svidDir, SVID_FILE.jwt), 'utf8').catch(() => '') : '';
  if (svid.trim() === '') {
    throw new InjectionError(502, 'svid_unavailable', 'the pod has no JWT-SVID mounted');
  }
  return svid.trim();
}

/** A token endpoint's answer; a network failure or timeout is an InjectionError. */
export async function requestToken(
  url: string,
  params: Record<string, string>,
  timeoutMs: number,
): Promise<FormTokenOutcome> {
  try {
    return await postTokenForm(url, params, timeoutMs);
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    throw unreachable(err, 'token_endpoint', timedOut);
  }
}
