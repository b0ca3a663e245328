// The console shell's WebSocket endpoint, `GET /v1/agents/{agent_id}/console/shell`.
// Koa cannot take upgrades, so this listens to the HTTP server's 'upgrade'
// event: a WebSocket upgrade on the shell path is admitted here (admission.ts)
// and bridged (session.ts); any other upgrade goes to the app as a plain
// request, as before there was a listener. Every attempt by a known caller
// is audited: a refusal once; a session when it starts and when it ends
// (decision 180). SIGTERM closes open sessions with 1001 (`closeAll`).
import { randomUUID } from 'node:crypto';
import {
  STATUS_CODES,
  ServerResponse,
  type IncomingMessage,
  type RequestListener,
  type Server,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type * as k8s from '@kubernetes/client-node';
import { WebSocketServer, type WebSocket } from 'ws';
import type { PlatformAgent } from '../agents/model.ts';
import type { AuditInput } from '../audit/log.ts';
import type { Principal } from '../auth/principal.ts';
import { errorBody, HttpError } from '../../base/http-error.ts';
import { toHttpError } from '../http/errors.ts';
import { outcomeOf, type Executor } from '../routes/execute.ts';
import {
  readShellRequest,
  SHELL_PATH_RE,
  shellAgent,
  shellAgentName,
  shellCaller,
  type ShellRequest,
} from './admission.ts';
import { SHELL_ACTION } from './control-actions.ts';
import type { ShellExec } from './exec.ts';
import { CLOSE, MAX_STDIN_BYTES, SHELL_SUBPROTOCOL } from './protocol.ts';
import { ShellSession, type SessionRecord } from './session.ts';
import { findShellTarget, type ShellTarget } from './target.ts';

export interface ShellServerOptions extends Pick<Executor, 'deps' | 'authenticators' | 'metrics'> {
  core: k8s.CoreV1Api;
  exec: ShellExec;
  idleMs: number;
}

/** One attempt, as far as admission got: who, on what. */
interface Attempt {
  sessionId: string;
  principal?: Principal;
  agentId?: string;
  namespace?: string;
  agent?: PlatformAgent;
}

const isShellUpgrade = (req: IncomingMessage): boolean =>
  req.headers.upgrade?.toLowerCase() === 'websocket' &&
  SHELL_PATH_RE.test(new URL(req.url ?? '/', 'http://shell.invalid').pathname);

/** Hands an upgrade request that is not for the shell to the app, which answers it as a plain request. */
function answerAsRequest(app: RequestListener, req: IncomingMessage, socket: Duplex): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as never);
  res.on('finish', () => {
    res.detachSocket(socket as never);
    socket.end();
  });
  void app(req, res);
}

/** Answers a refused upgrade with a plain HTTP error `{detail, code}` and closes the connection. */
function refuse(socket: Duplex, err: HttpError): void {
  const body = JSON.stringify(errorBody(err));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...err.headers,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? ''}\r\n${head}\r\n\r\n${body}`);
}

export class ShellServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    // JSON escaping can take a 64 KiB stdin to several times its size; anything larger is closed 1009.
    maxPayload: 8 * MAX_STDIN_BYTES,
    handleProtocols: (offered) => (offered.has(SHELL_SUBPROTOCOL) ? SHELL_SUBPROTOCOL : false),
  });
  private readonly sessions = new Set<ShellSession>();
  private closing = false;

  constructor(private readonly o: ShellServerOptions) {}

  /** Serves shell upgrades on `server`; other upgrades go to `app` as plain requests. */
  attach(server: Server, app: RequestListener): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined);
      if (!isShellUpgrade(req)) return answerAsRequest(app, req, socket);
      void this.admit(req, socket, head);
    });
  }

  /**
   * Closes every open session (1001) once each has been recorded; a client
   * that has not answered the close within `graceMs` is cut off. Upgraded
   * sockets are no longer the HTTP server's to close.
   */
  async closeAll(graceMs: number): Promise<void> {
    this.closing = true;
    const open = [...this.sessions];
    for (const s of open) s.close(CLOSE.goingAway, 'the API is shutting down');
    await Promise.all(open.map((s) => s.done));
    const closed = Promise.all(open.map((s) => s.closed));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([closed, grace]);
    clearTimeout(timer);
    for (const s of open) s.terminate();
  }

  private async admit(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const attempt: Attempt = { sessionId: randomUUID() };
    try {
      if (this.closing) throw new HttpError(503, 'the API is shutting down', 'shutting_down');
      const request = readShellRequest(req);
      attempt.principal = await shellCaller(request, this.o);
      attempt.namespace = shellAgentName(request).namespace;
      attempt.agentId = request.agentId;
      const agent = await shellAgent(request, attempt.principal, this.o.deps, (a) => (attempt.agent = a));
      const target = await findShellTarget(
        this.o.core,
        agent.metadata.namespace ?? '',
        agent.metadata.name ?? '',
      );
      await this.record(attempt, 101, {
        phase: 'started',
        started_at: new Date(this.o.deps.now()).toISOString(),
        ...where(target, request),
      });
      this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, attempt, target, request));
    } catch (err) {
      const http = toHttpError(err) ?? new HttpError(500, 'the shell could not be opened', 'internal');
      if (http.status >= 500)
        this.o.deps.log.error({ err, sessionId: attempt.sessionId }, 'console shell upgrade failed');
      // Recorded before the answer, as a REST refusal is.
      if (attempt.principal)
        await this.record(attempt, http.status, {}).catch((e: unknown) => this.unrecorded(e, attempt));
      refuse(socket, http);
    }
  }

  private open(ws: WebSocket, attempt: Attempt, target: ShellTarget, request: ShellRequest): void {
    const session = new ShellSession({
      ws,
      target,
      tty: request.tty,
      exec: this.o.exec,
      idleMs: this.o.idleMs,
      now: this.o.deps.now,
      onEnd: (record) => this.ended(attempt, target, request, record),
    });
    this.sessions.add(session);
    // Admitted while the API began to stop: closed like the others.
    if (this.closing) session.close(CLOSE.goingAway, 'the API is shutting down');
    void session.done.then(() => this.sessions.delete(session));
  }

  private async ended(
    attempt: Attempt,
    target: ShellTarget,
    request: ShellRequest,
    record: SessionRecord,
  ): Promise<void> {
    try {
      await this.record(attempt, 101, { phase: 'ended', ...where(target, request), ...record });
    } catch (err) {
      this.unrecorded(err, attempt);
    }
  }

  private unrecorded(err: unknown, attempt: Attempt): void {
    this.o.deps.log.error(
      { err, sessionId: attempt.sessionId },
      'console shell: an attempt was not recorded',
    );
  }

  private record(attempt: Attempt, status: number, details: Record<string, unknown>): Promise<unknown> {
    return this.o.deps.audit.append(auditInputOf(attempt, status, details));
  }
}

/** The audit entry of an attempt by a known caller (a session's start and end, or a refusal). */
function auditInputOf(attempt: Attempt, status: number, details: Record<string, unknown>): AuditInput {
  const { principal, agent } = attempt;
  const uid = agent?.metadata.uid;
  return {
    subject: principal?.subject ?? 'anonymous',
    method: principal?.method ?? 'none',
    action: SHELL_ACTION,
    // Named once its id was found well-formed (a malformed one is not written down).
    resource: attempt.agentId ?? 'console/shell',
    ...(attempt.namespace ? { namespace: attempt.namespace } : {}),
    status,
    outcome: outcomeOf(status),
    requestId: attempt.sessionId,
    details: { ...(uid ? { agent_uid: uid } : {}), ...details },
  };
}

/** Where a session ran, for its audit entries. */
const where = (target: ShellTarget, request: ShellRequest): Record<string, unknown> => ({
  pod: target.pod,
  container: target.container,
  tty: request.tty,
});
