// The Gateway's auditor chain: who is in it, how each is reached (pod-local,
// mTLS, API key), its vocabulary (fetched from /vocabulary; another major
// schema version is refused) and the `/claims` call with deadline, one retry
// of a retryable error, and a check of every claim against the vocabulary.
import { readFileSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import type { Claim, ClaimsRequest, Vocabulary } from '../auditors/sdk/types.ts';
import type { AuditorChannel, AuditorOutcome, DeploymentMode } from '../evidence/types.ts';
import { claimTypeProblem } from '../policy/context.ts';
import type { CallError } from '../base/http-client.ts';
import { callJson } from '../base/http-client.ts';

export const SUPPORTED_SCHEMA_MAJOR = 2;

export type AuditorAuth =
  { type: 'none' } | { type: 'api_key'; key: string } | { type: 'mtls'; agent: HttpsAgent };

export interface ChainAuditor {
  id: string;
  url: string;
  deploymentMode: DeploymentMode;
  auth: AuditorAuth;
  vocabulary?: Vocabulary;
  vocabularyError?: string;
  vocabularyFetchedAt?: number;
}

export interface TlsFiles {
  cert?: string;
  key?: string;
  ca?: string;
}

/** An https agent presenting the gateway's client certificate, trusting `caPem` (the registration's) or the CA file. */
export function mtlsAgent(files: TlsFiles, caPem?: string): HttpsAgent {
  if (!files.cert || !files.key)
    throw new Error('mTLS auditors need PLATFORM_GATEWAY_TLS_CERT and PLATFORM_GATEWAY_TLS_KEY');
  const ca = caPem ?? (files.ca ? readFileSync(files.ca, 'utf8') : undefined);
  return new HttpsAgent({
    keepAlive: true,
    cert: readFileSync(files.cert),
    key: readFileSync(files.key),
    ...(ca ? { ca } : {}),
  });
}

export function channelOf(a: ChainAuditor): AuditorChannel {
  if (a.auth.type === 'mtls') return 'mtls';
  if (a.auth.type === 'api_key') return 'api_key';
  return a.deploymentMode === 'sidecar' ? 'pod_local' : 'plain';
}

function requestOptions(a: ChainAuditor): { headers: Record<string, string>; agent?: HttpsAgent } {
  if (a.auth.type === 'api_key') return { headers: { authorization: `Bearer ${a.auth.key}` } };
  if (a.auth.type === 'mtls') return { headers: {}, agent: a.auth.agent };
  return { headers: {} };
}

/** '' when the declaration is usable, else why not. */
export function vocabularyProblem(v: unknown): string {
  const decl = v as Partial<Vocabulary> & { schema_version?: unknown };
  if (!decl || typeof decl !== 'object' || !Array.isArray(decl.vocabulary))
    return 'vocabulary declaration has no vocabulary[]';
  if (decl.schema_version !== undefined) {
    const major = Number(String(decl.schema_version).split('.')[0]);
    if (major !== SUPPORTED_SCHEMA_MAJOR)
      return `schema version ${String(decl.schema_version)} is not ${SUPPORTED_SCHEMA_MAJOR}.x`;
  }
  return '';
}

export async function fetchVocabulary(a: ChainAuditor, timeoutMs: number): Promise<void> {
  a.vocabularyFetchedAt = Date.now();
  try {
    const res = await callJson(`${a.url}/vocabulary`, { timeoutMs, ...requestOptions(a) });
    if (res.status !== 200) throw new Error(`GET /vocabulary answered ${res.status}`);
    const decl = JSON.parse(res.body.toString('utf8')) as Vocabulary;
    const problem = vocabularyProblem(decl);
    if (problem) throw new Error(problem);
    a.vocabulary = decl;
    delete a.vocabularyError;
  } catch (err) {
    a.vocabularyError = (err as Error).message;
  }
}

type ErrorInfo = NonNullable<AuditorOutcome['error']>;
type Attempt = { claims: Claim[] } | { error: ErrorInfo };

type AnswerBody = { status?: unknown; claims?: unknown; error?: Partial<ErrorInfo> };

const invalid = (message: string, retryable = false): Attempt => ({
  error: { code: 'INVALID_RESPONSE', message, retryable },
});

function parseAnswer(raw: Buffer): AnswerBody | undefined {
  try {
    return JSON.parse(raw.toString('utf8')) as AnswerBody;
  } catch {
    return undefined;
  }
}

function errorEnvelope(body: AnswerBody): Attempt {
  const e = body.error ?? {};
  return {
    error: {
      code: String(e.code ?? 'INTERNAL_ERROR'),
      message: String(e.message ?? ''),
      retryable: e.retryable === true,
    },
  };
}

/** The first claim not declared in the auditor's vocabulary or not of its declared type. */
function undeclaredClaimProblem(a: ChainAuditor, claims: Claim[]): string {
  const declared = new Map((a.vocabulary?.vocabulary ?? []).map((v) => [v.name, v.type]));
  for (const c of claims) {
    const type = declared.get(c?.name);
    const problem = !type ? `claim '${String(c?.name)}' is not in the vocabulary` : claimTypeProblem(c, type);
    if (problem) return problem;
  }
  return '';
}

/** Checks a `/claims` answer; anything off is an error, never claims taken on trust. */
export function readClaimsAnswer(a: ChainAuditor, status: number, raw: Buffer): Attempt {
  if (status !== 200) return invalid(`HTTP ${status}`, status >= 500);
  const body = parseAnswer(raw);
  if (body === undefined) return invalid('answer is not JSON');
  if (body?.status === 'error') return errorEnvelope(body);
  if (body?.status !== 'success' || !Array.isArray(body.claims)) {
    return invalid(`status ${JSON.stringify(body?.status)} is not success or error`);
  }
  const claims = body.claims as Claim[];
  const problem = undeclaredClaimProblem(a, claims);
  return problem ? { error: { code: 'INVALID_CLAIMS', message: problem, retryable: false } } : { claims };
}

async function attempt(a: ChainAuditor, body: ClaimsRequest, timeoutMs: number): Promise<Attempt> {
  try {
    const res = await callJson(`${a.url}/claims`, { body, timeoutMs, ...requestOptions(a) });
    return readClaimsAnswer(a, res.status, res.body);
  } catch (err) {
    const e = err as CallError;
    const code = e.code === 'timeout' ? 'AUDITOR_TIMEOUT' : e.code === 'tls' ? 'TLS_ERROR' : 'NETWORK_ERROR';
    return { error: { code, message: e.message, retryable: e.code !== 'tls' } };
  }
}

/** Calls one auditor within `deadlineMs`, retrying a retryable error once while time remains. */
export async function callAuditor(
  a: ChainAuditor,
  body: ClaimsRequest,
  deadlineMs: number,
): Promise<{ outcome: AuditorOutcome; claims: Claim[] }> {
  const started = performance.now();
  const base = { auditor_id: a.id, deployment_mode: a.deploymentMode, channel: channelOf(a) };
  const finish = (attempts: number, result: Attempt) => {
    const latency_ms = Math.round((performance.now() - started) * 100) / 100;
    if ('error' in result) {
      return {
        outcome: { ...base, status: 'error' as const, claims: [], latency_ms, attempts, error: result.error },
        claims: [],
      };
    }
    const names = result.claims.map((c) => c.name);
    return {
      outcome: { ...base, status: 'ok' as const, claims: names, latency_ms, attempts },
      claims: result.claims,
    };
  };
  if (!a.vocabulary) {
    return finish(0, {
      error: {
        code: 'VOCABULARY_UNAVAILABLE',
        message: a.vocabularyError ?? 'vocabulary not fetched yet',
        retryable: true,
      },
    });
  }
  const first = await attempt(a, body, deadlineMs);
  const left = deadlineMs - (performance.now() - started);
  if ('error' in first && first.error.retryable && left > 1) return finish(2, await attempt(a, body, left));
  return finish(1, first);
}
