// What a shell session records of its stdin: the lines sent, as a terminal
// would show them once Enter is pressed (backspace applied, escape sequences
// and other control characters dropped), each cut at 512 characters, at most
// 200 lines and then only a count of the rest. Pure.

export const MAX_COMMAND_CHARS = 512;
export const MAX_COMMANDS = 200;

export interface RecordedCommands {
  commands: string[];
  /** Lines sent after the first MAX_COMMANDS. */
  commands_omitted: number;
}

// CSI and SS3 sequences (arrow keys, function keys), then single ESC pairs.
// eslint-disable-next-line no-control-regex -- escape sequences are what gets dropped
const ESCAPE_RE = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|O.|[@-_]?)/g;
const BACKSPACES = new Set(['\u007f', '\b']);
const LINE_ENDS = new Set(['\r', '\n']);

export class CommandRecorder {
  private readonly lines: string[] = [];
  private omitted = 0;
  private current = '';
  /** Characters dropped from the current line past the cut (it stays cut once Enter comes). */
  private previous = '';

  /** Feeds stdin as sent; complete lines are recorded. */
  feed(data: string): void {
    for (const ch of data.replace(ESCAPE_RE, '')) this.take(ch);
  }

  /** The record, with a line still being typed counted as sent. */
  finish(): RecordedCommands {
    this.endLine();
    return { commands: [...this.lines], commands_omitted: this.omitted };
  }

  /** How many lines were sent so far. */
  get count(): number {
    return this.lines.length + this.omitted;
  }

  private take(ch: string): void {
    if (LINE_ENDS.has(ch)) {
      // `\r\n` from a line-mode client is one Enter.
      if (!(ch === '\n' && this.previous === '\r')) this.endLine();
    } else if (BACKSPACES.has(ch)) {
      this.current = [...this.current].slice(0, -1).join('');
    } else if (ch === '\t' || ch >= ' ') {
      if (this.current.length < MAX_COMMAND_CHARS) this.current += ch;
    }
    this.previous = ch;
  }

  private endLine(): void {
    const line = this.current.trim();
    this.current = '';
    if (line === '') return;
    if (this.lines.length < MAX_COMMANDS) this.lines.push(line.slice(0, MAX_COMMAND_CHARS));
    else this.omitted += 1;
  }
}
