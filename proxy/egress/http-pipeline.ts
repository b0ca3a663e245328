// The proxy's HTTP request path (issue 19): every plain-HTTP request and every
// request inside intercepted TLS goes, in order, through access (Cedar),
// approval (held until an Owner decides), injection (the credential the agent
// never sees), the target (one refresh and retry after a 401) and the
// data-access record. Node's own HTTP parser reads the agent's requests
// (strict: conflicting Content-Length / Transfer-Encoding, bad header bytes
// and oversized heads are refused before any of this runs).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../base/log.ts';
import type { EgressPolicy } from '../policy.ts';
import { formatDestination, isSelf, type RouteOptions } from '../route.ts';
import type {
  AccessQuestion,
  AccessSink,
  ApprovalGate,
  ApprovalOutcome,
  DataAccess,
  EgressAccess,
  EgressRule,
  Injection,
  Injector,
} from '../../contract/egress.ts';
import { InjectionError } from '../../contract/egress.ts';
import { subagentOf } from '../../contract/subagent.ts';
import { answer, rawAnswer, readBody, Refusal } from './http-answers.ts';
import {
  actionOf,
  forwardHeaders,
  responseHeaders,
  subjectTokenOf,
  targetOf,
  userOf,
  type ConnectionFacts,
  type RequestTarget,
} from './http-facts.ts';
import { Upstream, UpstreamFailure, type UpstreamOptions } from './upstream.ts';

export interface PipelineOptions {
  agentId: string;
  access: EgressAccess;
  approvals: ApprovalGate;
  injector: Injector;
  sink: AccessSink;
  /** The rule for a host (exact beats wildcard), from the current egress bundle. */
  match: (host: string) => EgressRule | undefined;
  /**
   * Resolves once the egress bundle has been read (or its first read failed):
   * a call is matched against rules only after that, or a call racing the
   * first read would be matched against none and then allowed by the policy.
   */
  ready?: () => Promise<unknown>;
  /** The model guard and the manifest's network domain; answers the address to connect to. */
  guard: EgressPolicy;
  route: RouteOptions;
  upstream: UpstreamOptions;
  maxBodyBytes: number;
  maxHeadBytes: number;
  headTimeoutMs: number;
  idleTimeoutMs: number;
  /** The JWT claim naming the user of an OBO call (as the API maps users). */
  userClaim: string;
  log: Logger;
}

export interface Pipeline {
  /** Serves HTTP on `socket` (plain, or TLS already terminated) until it closes. */
  serve(socket: Duplex, facts: ConnectionFacts): Promise<void>;
  close(): void;
}

interface Call {
  req: IncomingMessage;
  facts: ConnectionFacts;
  target: RequestTarget;
  rule?: EgressRule;
  question: AccessQuestion;
  subjectToken?: string;
  approvalId?: string;
  /** The subagent the agent runtime named (`x-platform-subagent`); the header is not forwarded. */
  subagent?: string;
  started: number;
  signal: AbortSignal;
  bytesUp: number;
  bytesDown: number;
}

type Body = Buffer | IncomingMessage;

const hasBody = (req: IncomingMessage): boolean =>
  req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;

/** What the agent gets for an approval that did not end in `approved`. */
function approvalRefusal(o: Exclude<ApprovalOutcome, { outcome: 'approved' }>): Refusal {
  const approvalId = o.approvalId;
  switch (o.outcome) {
    case 'denied':
      return new Refusal({
        status: 403,
        code: 'approval_denied',
        detail: `an Owner denied this call: ${o.reason}`,
        outcome: 'approval_denied',
        ...(approvalId ? { approvalId } : {}),
      });
    case 'error':
      return new Refusal({
        status: 502,
        code: 'approval_unavailable',
        detail: `the approval could not be requested: ${o.reason}`,
      });
    default: {
      const expired = o.outcome === 'expired';
      return new Refusal({
        status: expired ? 403 : 504,
        code: expired ? 'approval_expired' : 'approval_timeout',
        detail: o.reason,
        outcome: 'approval_timeout',
        ...(approvalId ? { approvalId } : {}),
      });
    }
  }
}

function refusalOf(err: unknown): Refusal {
  if (err instanceof Refusal) return err;
  if (err instanceof InjectionError)
    return new Refusal({ status: err.status, code: err.code, detail: err.message });
  if (err instanceof UpstreamFailure)
    return new Refusal({
      status: err.status,
      code: 'upstream_error',
      detail: err.reason,
      outcome: 'upstream_error',
    });
  return new Refusal({
    status: 502,
    code: 'proxy_error',
    detail: 'the proxy could not complete the call',
    outcome: 'upstream_error',
  });
}

class HttpPipeline implements Pipeline {
  private readonly upstream: Upstream;
  private readonly facts = new WeakMap<object, ConnectionFacts>();
  private readonly abort = new AbortController();
  private readonly server: Server;

  constructor(private readonly o: PipelineOptions) {
    this.upstream = new Upstream(o.upstream);
    this.server = createServer(
      {
        maxHeaderSize: o.maxHeadBytes,
        headersTimeout: o.headTimeoutMs,
        requestTimeout: 0,
        keepAliveTimeout: 5_000,
        insecureHTTPParser: false,
      },
      (req, res) => void this.handle(req, res),
    );
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
      const reason = err.code ?? 'bad request';
      o.log.info({ reason }, 'refused a malformed request');
      rawAnswer(
        socket,
        reason === 'HPE_HEADER_OVERFLOW' ? 431 : 400,
        `malformed request (${reason})`,
        'bad_request',
      );
    });
    this.server.on('upgrade', (_req: IncomingMessage, socket: Duplex) =>
      rawAnswer(socket, 501, 'protocol upgrades are not proxied', 'upgrade_not_supported'),
    );
  }

  serve(socket: Duplex, facts: ConnectionFacts): Promise<void> {
    this.facts.set(socket, facts);
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      this.server.emit('connection', socket);
      // The preamble reader left the socket paused with its first bytes unshifted.
      socket.resume();
    });
  }

  close(): void {
    this.abort.abort();
    this.upstream.close();
    this.server.close();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.o.ready?.();
    const call = this.callOf(req, res);
    if (call instanceof Refusal)
      return answer(res, { status: call.status, code: call.code, detail: call.message });
    try {
      await this.run(call, res);
    } catch (err) {
      const r = refusalOf(err);
      if (r.code === 'proxy_error') this.o.log.error({ err }, 'request handling failed');
      if (r.approvalId) call.approvalId = r.approvalId;
      if (res.headersSent) res.destroy();
      else
        answer(res, {
          status: r.status,
          code: r.code,
          detail: r.message,
          ...(r.approvalId ? { approvalId: r.approvalId } : {}),
        });
      this.record(call, r.outcome, { reason: r.message });
    }
  }

  /** Where the request goes and which subagent sends it; a Refusal for a request the proxy cannot take. */
  private addressed(
    req: IncomingMessage,
    facts: ConnectionFacts,
  ): { target: RequestTarget; subagent?: string } | Refusal {
    const target = targetOf(req.url ?? '/', req.headers.host, facts);
    if ('reason' in target)
      return new Refusal({ status: target.status, code: 'bad_request', detail: target.reason });
    if (isSelf(target.destination, this.o.route))
      return new Refusal({ status: 400, code: 'loop', detail: 'destination is the proxy itself' });
    const named = subagentOf(req.headers);
    if (!named.ok) return new Refusal({ status: 400, code: 'invalid_subagent', detail: named.problem });
    return { target, ...(named.subagent ? { subagent: named.subagent } : {}) };
  }

  private callOf(req: IncomingMessage, res: ServerResponse): Call | Refusal {
    const facts = this.facts.get(req.socket) ?? { scheme: 'http', defaultPort: this.o.route.plainPort };
    const addressed = this.addressed(req, facts);
    if (addressed instanceof Refusal) return addressed;
    const { target, subagent } = addressed;
    const rule = this.o.match(target.destination.host);
    const subjectToken = subjectTokenOf(req.headers);
    const method = (req.method ?? 'GET').toUpperCase();
    // The agent giving up (or the proxy stopping) ends an approval wait and the upstream call.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    return {
      req,
      facts,
      target,
      question: {
        host: target.destination.host,
        port: target.destination.port,
        action: actionOf(method),
        method,
        user: userOf(subjectToken, this.o.userClaim),
        ...(rule ? { rule } : {}),
      },
      ...(rule ? { rule } : {}),
      ...(subjectToken ? { subjectToken } : {}),
      ...(subagent ? { subagent } : {}),
      started: performance.now(),
      signal: AbortSignal.any([this.abort.signal, gone.signal]),
      bytesUp: 0,
      bytesDown: 0,
    };
  }

  private async run(call: Call, res: ServerResponse): Promise<void> {
    const { question, target, rule } = call;
    const checked = await this.o.guard.decide({ kind: 'http', destination: target.destination });
    if (!checked.allow) throw new Refusal({ status: 403, code: 'egress_denied', detail: checked.reason });
    const access = await this.o.access.decide(question);
    if (!access.allow) throw new Refusal({ status: 403, code: 'egress_denied', detail: access.reason });
    const held = this.o.access.needsApproval(question);
    // A body is kept whole when the call may be held or sent twice (after a 401); else it streams.
    const body: Body = held || rule ? await readBody(call.req, this.o.maxBodyBytes) : call.req;
    if (Buffer.isBuffer(body)) call.bytesUp = body.length;
    if (held) await this.approve(call);
    const first = await this.sendInjected(call, checked.address, body);
    const answerRes =
      first.statusCode === 401 && rule && Buffer.isBuffer(body)
        ? await this.retryAfter401(call, first, checked.address, body)
        : first;
    await this.relayResponse(call, answerRes, res);
    this.record(call, 'forwarded', { status: answerRes.statusCode });
  }

  private async retryAfter401(call: Call, first: IncomingMessage, address: string | undefined, body: Buffer) {
    first.resume();
    this.o.injector.invalidate(call.rule as EgressRule, this.injectionContext(call));
    return this.sendInjected(call, address, body);
  }

  private async approve(call: Call): Promise<void> {
    const { question, target, facts } = call;
    const where = `${facts.scheme}://${formatDestination(target.destination)}${target.path}`;
    const details = {
      method: question.method,
      host: question.host,
      port: question.port,
      path: target.path,
      ...(question.user ? { user: question.user } : {}),
      ...(call.subagent ? { subagent: call.subagent } : {}),
      ...(call.rule ? { service: call.rule.service, rule: call.rule.source } : {}),
    };
    const outcome = await this.o.approvals.hold(
      {
        action: question.action,
        target: `${question.method} ${where}`.slice(0, 2048),
        description: `The agent's ${question.method} to ${where} is held until an Owner decides.`,
        details,
      },
      call.signal,
    );
    if (outcome.outcome !== 'approved') throw approvalRefusal(outcome);
    call.approvalId = outcome.approvalId;
  }

  private injectionContext(call: Call) {
    return { ...(call.subjectToken ? { subjectToken: call.subjectToken } : {}), signal: call.signal };
  }

  private async sendInjected(call: Call, address: string | undefined, body: Body): Promise<IncomingMessage> {
    const injection: Injection | undefined = call.rule
      ? await this.o.injector.inject(call.rule, this.injectionContext(call))
      : undefined;
    return this.upstream.send({
      scheme: call.facts.scheme,
      destination: call.target.destination,
      ...(address ? { address } : {}),
      method: call.question.method,
      pathAndQuery: call.target.pathAndQuery,
      headers: forwardHeaders(call.req.rawHeaders, injection),
      body: !Buffer.isBuffer(body) && !hasBody(call.req) ? undefined : body,
      signal: call.signal,
    });
  }

  private relayResponse(call: Call, from: IncomingMessage, to: ServerResponse): Promise<void> {
    to.writeHead(from.statusCode ?? 502, from.statusMessage, responseHeaders(from.rawHeaders));
    // One timer per response, refreshed by each chunk: a target that stops sending mid-body is cut.
    const idle = setTimeout(() => from.destroy(), this.o.idleTimeoutMs);
    from.on('data', (chunk: Buffer) => {
      call.bytesDown += chunk.length;
      idle.refresh();
    });
    return new Promise((resolve) => {
      from.pipe(to);
      to.once('close', () => {
        clearTimeout(idle);
        // The agent left before the end: the rest of the answer is not wanted.
        if (!from.complete) from.destroy();
        resolve();
      });
      from.once('error', () => to.destroy());
    });
  }

  private record(
    call: Call,
    outcome: DataAccess['outcome'],
    extra: { status?: number; reason?: string },
  ): void {
    const q = call.question;
    const destination = formatDestination(call.target.destination);
    this.o.sink.record({
      at: new Date().toISOString(),
      kind: call.facts.scheme,
      destination,
      method: q.method,
      action: q.action,
      path: call.target.path,
      ...extra,
      outcome,
      ...(q.user ? { user: q.user } : {}),
      ...(call.rule ? { injectionMethod: call.rule.injectionMethod, service: call.rule.service } : {}),
      ...(call.approvalId ? { approvalId: call.approvalId } : {}),
      ...(call.subagent ? { subagent: call.subagent } : {}),
      bytesUp: call.bytesUp,
      bytesDown: call.bytesDown,
      durationMs: Math.round(performance.now() - call.started),
    });
    this.o.log.info({ destination, method: q.method, outcome, ...extra }, 'request');
  }
}

export function createPipeline(o: PipelineOptions): Pipeline {
  return new HttpPipeline(o);
}
