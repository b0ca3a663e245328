// The auditors the Gateway knows: its PLATFORM_CHAIN, plus auditors that
// register at `POST /v1/auditors/register`. Only a caller with the gateway's
// API key registers or changes an auditor; an auditor of the chain that
// re-registers without it (the injected sidecars do, on start) is
// acknowledged and nothing moves. A keyed registration is relayed to the
// Verifier: one it refuses (4xx, e.g. a change only an org administrator may
// make) is answered as refused and not applied here.
import type { Logger } from '../base/log.ts';
import type { DeploymentMode } from '../evidence/types.ts';
import {
  fetchVocabulary,
  mtlsAgent,
  type AuditorAuth,
  type ChainAuditor,
  type TlsFiles,
} from './auditors.ts';
import type { ChainEntry } from './config.ts';
import { callJson } from '../base/http-client.ts';

export interface RegistrationBody {
  auditor_id?: unknown;
  endpoint?: unknown;
  vocabulary_url?: unknown;
  deployment_mode?: unknown;
  auth?: { type?: unknown; cert_pem?: unknown; key_env?: unknown };
}

export class AuditorRegistry {
  private readonly byId = new Map<string, ChainAuditor>();

  constructor(
    chain: ChainEntry[],
    private readonly o: {
      tls: TlsFiles;
      env: NodeJS.ProcessEnv;
      timeoutMs: number;
      log: Logger;
      verifierUrl?: string;
      apiKey?: string;
    },
  ) {
    for (const e of chain)
      this.byId.set(e.id, { id: e.id, url: e.url, deploymentMode: e.deploymentMode, auth: { type: 'none' } });
  }

  list(): ChainAuditor[] {
    return [...this.byId.values()];
  }

  /** Fetches missing vocabularies (each at most every 2 s). */
  async refreshVocabularies(): Promise<void> {
    const due = this.list().filter((a) => !a.vocabulary && Date.now() - (a.vocabularyFetchedAt ?? 0) > 2000);
    await Promise.all(due.map((a) => fetchVocabulary(a, Math.min(this.o.timeoutMs, 5000))));
  }

  readiness(): string {
    return this.list()
      .filter((a) => !a.vocabulary)
      .map((a) => `${a.id}: ${a.vocabularyError ?? 'vocabulary pending'}`)
      .join('; ');
  }

  private authOf(body: RegistrationBody): AuditorAuth {
    const type = body.auth?.type;
    if (type === 'mtls')
      return {
        type: 'mtls',
        agent: mtlsAgent(
          this.o.tls,
          typeof body.auth?.cert_pem === 'string' ? body.auth.cert_pem : undefined,
        ),
      };
    if (type === 'api_key') {
      const name = typeof body.auth?.key_env === 'string' ? body.auth.key_env : 'PLATFORM_AUDITOR_API_KEY';
      const key = this.o.env[name];
      if (!key) throw new Error(`api_key auditor: the gateway has no ${name}`);
      return { type: 'api_key', key };
    }
    return { type: 'none' };
  }

  /** Records a registration; returns [status, body] to answer. */
  async register(body: RegistrationBody, authorized: boolean): Promise<[number, unknown]> {
    const target = registrationTarget(body);
    if (!target) {
      return [
        400,
        { detail: 'registration needs auditor_id and an http(s) endpoint', code: 'invalid_request' },
      ];
    }
    const { id, endpoint } = target;
    const known = this.byId.get(id);
    if (!authorized) return this.acknowledge(known);
    let auth: AuditorAuth;
    try {
      auth = this.authOf(body);
    } catch (err) {
      return [422, { detail: (err as Error).message, code: 'invalid_auth' }];
    }
    const mode = deploymentModeOf(body, known);
    const auditor: ChainAuditor = { id, url: endpoint, deploymentMode: mode, auth };
    await fetchVocabulary(auditor, Math.min(this.o.timeoutMs, 5000));
    const answer = await this.relay(body, id, !auditor.vocabularyError);
    if (answer[0] >= 400 && answer[0] < 500) return answer;
    this.byId.set(id, auditor);
    this.o.log.info(
      { auditorId: id, endpoint, mode, auth: auth.type, vocabulary: !auditor.vocabularyError },
      'auditor registered',
    );
    return answer;
  }

  /** An unauthenticated registration: a known auditor is acknowledged as it is; a new one is refused. */
  private acknowledge(known: ChainAuditor | undefined): [number, unknown] {
    if (!known)
      return [401, { detail: 'a new auditor registers with the gateway API key', code: 'unauthenticated' }];
    return [200, { registered: true, auditor_id: known.id, vocabulary_synced: Boolean(known.vocabulary) }];
  }

  private async relay(body: RegistrationBody, id: string, synced: boolean): Promise<[number, unknown]> {
    const local = { registered: true, auditor_id: id, vocabulary_synced: synced };
    if (!this.o.verifierUrl) return [200, local];
    try {
      const res = await callJson(`${this.o.verifierUrl}/v1/auditors/register`, {
        body,
        timeoutMs: 5000,
        headers: this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {},
      });
      if (res.status >= 200 && res.status < 300)
        return [200, JSON.parse(res.body.toString('utf8') || '{}') as unknown];
      // A refusal of the registration is final (the auditor SDK stops retrying on a 4xx): passed on as
      // the Verifier said it. A 401 is about the gateway's own key, not the auditor: a relay failure.
      if (res.status >= 400 && res.status < 500 && res.status !== 401)
        return [res.status, refusalOf(res.status, res.body)];
      return [502, { detail: `Verifier answered ${res.status}`, code: 'relay_failed' }];
    } catch (err) {
      return [502, { detail: `Verifier unreachable: ${(err as Error).message}`, code: 'relay_failed' }];
    }
  }
}

/** The Verifier's `{detail, code}` when it sent one, else a generic one. */
function refusalOf(status: number, raw: Buffer): { detail: string; code?: string } {
  try {
    const b = JSON.parse(raw.toString('utf8')) as { detail?: unknown; code?: unknown };
    if (typeof b.detail === 'string')
      return { detail: b.detail, ...(typeof b.code === 'string' ? { code: b.code } : {}) };
  } catch {
    // not JSON: answered generically below
  }
  return { detail: `the Verifier refused the registration (${status})`, code: 'registration_refused' };
}

/** The auditor id (a DNS label) and its http(s) endpoint without trailing slashes; undefined when either is unusable. */
export function registrationTarget(body: RegistrationBody): { id: string; endpoint: string } | undefined {
  const id = typeof body.auditor_id === 'string' ? body.auditor_id : '';
  const endpoint = typeof body.endpoint === 'string' ? body.endpoint.replace(/\/+$/, '') : '';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(id) || !/^https?:\/\//.test(endpoint)) return undefined;
  return { id, endpoint };
}

/** The mode the body names, else the one the auditor registered with before, else external. */
function deploymentModeOf(body: RegistrationBody, known: ChainAuditor | undefined): DeploymentMode {
  if (typeof body.deployment_mode === 'string') return body.deployment_mode as DeploymentMode;
  return known?.deploymentMode ?? 'external';
}
