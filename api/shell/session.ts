// One shell session: the client's WebSocket bridged to an exec in the agent
// container. Client frames are parsed (a bad one closes with 1008), stdin is
// recorded as it goes to the shell, output goes back as frames; the exec's
// end sends its exit code and closes normally. The session also ends when
// the client closes, when nothing moved either way for the idle limit, or
// when the API shuts down (1001). `onEnd` runs exactly once, with the record.
import type { WebSocket } from 'ws';
import { CommandRecorder, type RecordedCommands } from './commands.ts';
import type { ExecHandle, ShellExec } from './exec.ts';
import { CLOSE, closeReason, parseClientFrame, type ClientFrame, type ServerFrame } from './protocol.ts';
import type { ShellTarget } from './target.ts';

/** Output waiting for a client that does not read: beyond it the session is closed. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Frames a client may send before the exec has started. */
const MAX_EARLY_FRAMES = 256;

export interface SessionRecord extends RecordedCommands {
  started_at: string;
  ended_at: string;
  duration_ms: number;
  /** The shell's exit code; null when it did not end by itself. */
  exit_code: number | null;
  close_code: number;
  close_reason: string;
}

export interface SessionOptions {
  ws: WebSocket;
  target: ShellTarget;
  tty: boolean;
  exec: ShellExec;
  idleMs: number;
  now: () => number;
  onEnd(record: SessionRecord): Promise<void>;
}

export class ShellSession {
  /** Settles once the session ended and `onEnd` finished. */
  readonly done: Promise<void>;
  /** Settles once the client's WebSocket is closed. */
  readonly closed: Promise<void>;
  private readonly recorder = new CommandRecorder();
  private readonly startedMs: number;
  private handle: ExecHandle | undefined;
  private early: ClientFrame[] = [];
  private idle: NodeJS.Timeout;
  private exitCode: number | null = null;
  private ended = false;
  private resolveDone!: () => void;

  constructor(private readonly o: SessionOptions) {
    this.startedMs = o.now();
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.closed = new Promise((resolve) => o.ws.once('close', () => resolve()));
    this.idle = setTimeout(() => this.close(CLOSE.normal, `idle for ${o.idleMs / 1000} s`), o.idleMs);
    o.ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    // A close the client began (or a dropped connection): recorded now.
    o.ws.on('close', (code, reason) => void this.finish(code, reason.toString()));
    o.ws.on('error', () => undefined);
    o.exec(o.target, o.tty, {
      stdout: (data) => this.send({ type: 'stdout', data }),
      stderr: (data) => this.send({ type: 'stderr', data }),
      ended: (code) => this.onExit(code),
    }).then(
      (handle) => this.started(handle),
      () => this.close(CLOSE.internal, 'the shell could not be started'),
    );
  }

  /**
   * Ends the session from this side: recorded first, so the record exists by
   * the time the client sees the close; then the close frame.
   */
  close(code: number, reason: string): void {
    void this.finish(code, reason).then(() => {
      const ws = this.o.ws;
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, closeReason(reason));
    });
  }

  /** Drops the connection without waiting for the client's close frame (shutdown, after a grace). */
  terminate(): void {
    this.o.ws.terminate();
  }

  private started(handle: ExecHandle): void {
    this.handle = handle;
    if (this.ended) return handle.close();
    for (const frame of this.early) this.apply(frame);
    this.early = [];
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    this.idle.refresh();
    const frame = parseClientFrame(data, isBinary);
    if (typeof frame === 'string') return this.close(CLOSE.policy, frame);
    if (this.handle) return this.apply(frame);
    if (this.early.length >= MAX_EARLY_FRAMES)
      return this.close(CLOSE.policy, 'too many frames before the shell started');
    this.early.push(frame);
  }

  private apply(frame: ClientFrame): void {
    if (frame.type === 'resize') return this.handle?.resize(frame.cols, frame.rows);
    this.recorder.feed(frame.data);
    this.handle?.write(frame.data);
  }

  private send(frame: ServerFrame): void {
    if (this.o.ws.readyState !== this.o.ws.OPEN) return;
    this.idle.refresh();
    if (this.o.ws.bufferedAmount > MAX_BUFFERED_BYTES)
      return this.close(CLOSE.policy, 'the client does not read');
    this.o.ws.send(JSON.stringify(frame));
  }

  private onExit(code: number): void {
    if (this.ended) return;
    this.exitCode = code;
    this.send({ type: 'exit', code });
    this.close(CLOSE.normal, 'the shell exited');
  }

  /** Records the session once (`onEnd` never throws: the server logs a failed record). */
  private async finish(closeCode: number, closeReasonText: string): Promise<void> {
    if (this.ended) return this.done;
    this.ended = true;
    clearTimeout(this.idle);
    this.handle?.close();
    const endedMs = this.o.now();
    try {
      await this.o.onEnd({
        started_at: new Date(this.startedMs).toISOString(),
        ended_at: new Date(endedMs).toISOString(),
        duration_ms: endedMs - this.startedMs,
        ...this.recorder.finish(),
        exit_code: this.exitCode,
        close_code: closeCode,
        close_reason: closeReasonText,
      });
    } finally {
      this.resolveDone();
    }
  }
}
