// The exec behind a shell session: Kubernetes exec into the target container
// (client-node's `Exec`, over the apiserver's WebSocket). The session speaks
// to it through `ShellExec`, the one seam a test without a kubelet replaces.
import { PassThrough, Writable } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import type { ShellTarget } from './target.ts';

export const SHELL_COMMAND = ['/bin/sh'];

export interface ExecIo {
  stdout(data: string): void;
  stderr(data: string): void;
  /** The exec ended: its exit code (-1 when unknown). */
  ended(code: number): void;
}

export interface ExecHandle {
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Ends the exec (closes its stdin and connection). */
  close(): void;
}

export type ShellExec = (target: ShellTarget, tty: boolean, io: ExecIo) => Promise<ExecHandle>;

/** A writable the exec writes one stream into. */
class Sink extends Writable {
  constructor(private readonly forward: (data: string) => void) {
    super({ decodeStrings: false });
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.forward(chunk.toString());
    done();
  }
}

/** A tty's stdout: client-node sends its size (rows, columns) at start and on each 'resize'. */
class TerminalSink extends Sink {
  rows = 24;
  columns = 80;
}

/** The exit code of a finished exec, as its V1Status says. */
export type ExitCodeOf = (status: k8s.V1Status | undefined) => number;

/** Exec through the apiserver with `kc`'s credentials (the API needs `pods/exec` create). */
export function kubeShellExec(kc: k8s.KubeConfig, exitCodeOf: ExitCodeOf): ShellExec {
  return async (target, tty, io) => {
    const stdin = new PassThrough();
    const stdout = tty ? new TerminalSink(io.stdout) : new Sink(io.stdout);
    // A tty merges stderr into stdout.
    const stderr = tty ? null : new Sink(io.stderr);
    let status: k8s.V1Status | undefined;
    const conn = await new k8s.Exec(kc).exec(
      target.namespace,
      target.pod,
      target.container,
      SHELL_COMMAND,
      stdout,
      stderr,
      stdin,
      tty,
      (s) => (status = s),
    );
    // A failed connection is reported by its close; 'error' alone would be an unhandled event.
    conn.on('error', () => undefined);
    conn.on('close', () => io.ended(exitCodeOf(status)));
    return {
      write: (data) => stdin.write(data),
      resize: (cols, rows) => {
        if (!(stdout instanceof TerminalSink)) return;
        stdout.columns = cols;
        stdout.rows = rows;
        stdout.emit('resize');
      },
      close: () => {
        stdin.end();
        conn.close();
      },
    };
  };
}
