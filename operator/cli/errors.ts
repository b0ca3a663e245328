// What a CLI command tells its user when it cannot do what was asked: one
// line, what went wrong and what to do, and an exit code a script can test.
// A stack trace is printed only with --verbose.

/** Exit codes of every `platform` user command (docs/cli.md). */
export const EXIT = {
  ok: 0,
  /** The command ran and found a problem: a check, a test or a validation failed; the server refused (4xx). */
  failed: 1,
  /** Usage or input: unknown flag, missing file, invalid YAML or JSON. */
  usage: 2,
  /** No credential, or the server did not accept it (401). */
  auth: 3,
  /** The server or cluster could not be reached, or answered 5xx. */
  unreachable: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failed,
    /** What to do about it, appended after the message. */
    readonly hint?: string,
  ) {
    super(message);
  }

  /** The one line shown on stderr. */
  line(): string {
    const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ').trim();
    return this.hint ? `${oneLine(this.message)}; ${oneLine(this.hint)}` : oneLine(this.message);
  }
}

export const usageError = (message: string, hint?: string): CliError =>
  new CliError(message, EXIT.usage, hint);
