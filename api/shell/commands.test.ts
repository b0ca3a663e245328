import { describe, expect, it } from 'vitest';
import { CommandRecorder, MAX_COMMAND_CHARS, MAX_COMMANDS } from './commands.ts';

const record = (...chunks: string[]) => {
  const r = new CommandRecorder();
  for (const c of chunks) r.feed(c);
  return r.finish();
};

describe('the command record of a shell session', () => {
  it('records each line sent, whatever the chunking', () => {
    expect(record('echo hi\nid -u\n')).toEqual({ commands: ['echo hi', 'id -u'], commands_omitted: 0 });
    expect(record('ec', 'ho h', 'i\r', 'ls', '\r\n')).toEqual({
      commands: ['echo hi', 'ls'],
      commands_omitted: 0,
    });
  });

  it('applies backspace and drops escape sequences and blank lines', () => {
    expect(record('lx\u007fs -l\r', '\u001b[A\r', '\n\n', 'pwd\u001b[D\u001bOA\r').commands).toEqual([
      'ls -l',
      'pwd',
    ]);
  });

  it('counts a line still being typed when the session ends', () => {
    expect(record('cat /etc/hostname').commands).toEqual(['cat /etc/hostname']);
  });

  it('cuts each line at 512 characters', () => {
    const [line] = record(`${'x'.repeat(5000)}\n`).commands;
    expect(line).toHaveLength(MAX_COMMAND_CHARS);
  });

  it('keeps 200 lines, then counts the rest', () => {
    const r = new CommandRecorder();
    for (let i = 0; i < MAX_COMMANDS + 7; i += 1) r.feed(`echo ${i}\n`);
    expect(r.count).toBe(MAX_COMMANDS + 7);
    const out = r.finish();
    expect(out.commands).toHaveLength(MAX_COMMANDS);
    expect(out.commands.at(-1)).toBe(`echo ${MAX_COMMANDS - 1}`);
    expect(out.commands_omitted).toBe(7);
  });
});
