// The Kubernetes side of `platform apply`: raw JSON requests to the apiserver
// of a kubeconfig (its TLS and credentials, as client-node reads them), so the
// objects travel exactly as written. Every failure becomes one CliError line:
// unreachable or 5xx → exit 4, 401 → exit 3, other refusals → exit 1.
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { k8s } from '../../base/kube.ts';
import { CliError, EXIT, usageError } from './errors.ts';

export type Obj = Record<string, unknown>;

export interface KubeReply {
  status: number;
  body: Obj;
}

export interface KubeRequest {
  body?: unknown;
  contentType?: string;
  query?: Record<string, string | undefined>;
}

const TIMEOUT_MS = 30_000;

/** True when client-node's loadFromDefault would find nothing and fall back to http://localhost:8080. */
function noDefaultKubeconfig(env: NodeJS.ProcessEnv): boolean {
  return (
    !env.KUBECONFIG &&
    !env.KUBERNETES_SERVICE_HOST &&
    !existsSync(join(env.HOME || homedir(), '.kube', 'config'))
  );
}

/** The kubeconfig: `--kubeconfig`, else $KUBECONFIG, else ~/.kube/config (client-node's loadFromDefault). */
export function loadKubeconfig(path: string | undefined, env = process.env): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  if (path !== undefined && !existsSync(path)) {
    throw usageError(`cannot read kubeconfig ${path}: no such file`, 'check --kubeconfig');
  }
  if (path === undefined && noDefaultKubeconfig(env)) {
    throw usageError('no kubeconfig found', 'pass --kubeconfig, set KUBECONFIG or create ~/.kube/config');
  }
  try {
    if (path) kc.loadFromFile(path);
    else kc.loadFromDefault();
  } catch (err) {
    throw usageError(
      `cannot load the kubeconfig${path ? ` ${path}` : ''}: ${(err as Error).message.split('\n')[0]}`,
      'check --kubeconfig or KUBECONFIG',
    );
  }
  if (!kc.getCurrentCluster()) {
    throw usageError('the kubeconfig names no current cluster', 'check --kubeconfig or KUBECONFIG');
  }
  return kc;
}

/** The current context's namespace, else `default`. */
export function contextNamespace(kc: k8s.KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}

function networkError(server: string, err: NodeJS.ErrnoException): CliError {
  const why = err.code ?? err.message;
  return new CliError(
    `cannot reach the cluster at ${server}: ${why}`,
    EXIT.unreachable,
    'check --kubeconfig or KUBECONFIG, and that the cluster is running',
  );
}

function parseBody(text: string): Obj {
  if (text === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : { value: v };
  } catch {
    return { message: text.slice(0, 200) };
  }
}

function queryString(query: KubeRequest['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : '';
}

export class KubeHttp {
  readonly server: string;

  constructor(private readonly kc: k8s.KubeConfig) {
    this.server = kc.getCurrentCluster()!.server;
  }

  /** The current context's namespace, else `default`. */
  get contextNamespace(): string {
    return contextNamespace(this.kc);
  }

  private async options(method: string, o: KubeRequest): Promise<RequestOptions> {
    const opts: RequestOptions & { headers: Record<string, string> } = { method, headers: {} };
    try {
      await this.kc.applyToHTTPSOptions(opts);
    } catch (err) {
      throw usageError(`the kubeconfig cannot be used: ${(err as Error).message}`, 'check --kubeconfig');
    }
    opts.headers.accept = 'application/json';
    if (o.body !== undefined) opts.headers['content-type'] = o.contentType ?? 'application/json';
    opts.timeout = TIMEOUT_MS;
    return opts;
  }

  /** One request; any status comes back (the caller decides), a network failure throws (exit 4). */
  async request(method: string, path: string, o: KubeRequest = {}): Promise<KubeReply> {
    const opts = await this.options(method, o);
    const url = new URL(`${this.server.replace(/\/+$/, '')}${path}${queryString(o.query)}`);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise<KubeReply>((resolve, reject) => {
      const req = send(url, opts, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: parseBody(Buffer.concat(chunks).toString('utf8')),
          }),
        );
        res.on('error', (err) => reject(networkError(this.server, err)));
      });
      req.on('timeout', () =>
        req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })),
      );
      req.on('error', (err) => reject(networkError(this.server, err)));
      req.end(o.body === undefined ? undefined : JSON.stringify(o.body));
    });
  }
}

/** The apiserver's message of a refusal (a Status object), else the HTTP status. */
export function statusMessage(reply: KubeReply): string {
  const m = reply.body.message;
  return typeof m === 'string' && m !== '' ? m : `HTTP ${reply.status}`;
}

/** A refusal as one line: `what` names the object or the call. */
export function kubeError(what: string, reply: KubeReply): CliError {
  const message = `${what}: ${statusMessage(reply)}`;
  if (reply.status === 401) {
    return new CliError(
      `${what}: the cluster did not accept the kubeconfig's credentials (401)`,
      EXIT.auth,
      'check --kubeconfig or KUBECONFIG',
    );
  }
  if (reply.status >= 500) return new CliError(message, EXIT.unreachable);
  return new CliError(message, EXIT.failed);
}
