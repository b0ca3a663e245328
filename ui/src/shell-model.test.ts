import { describe, expect, it } from 'vitest';
import {
  appendOutput,
  base64url,
  browse,
  closeWords,
  emptyHistory,
  isOwner,
  parseServerFrame,
  remember,
  shellProtocols,
  shellUrl,
  stdinFrame,
} from './shell-model.ts';

describe('who sees the shell', () => {
  it('is for Owners only', () => {
    const owners = [
      { subject: 'olivia@example.com', role: 'Owner' },
      { subject: 'eddie@example.com', role: 'Editor' },
      { subject: 'vera@example.com', role: 'Viewer' },
    ];
    expect(isOwner('olivia@example.com', owners)).toBe(true);
    expect(isOwner('eddie@example.com', owners)).toBe(false);
    expect(isOwner('vera@example.com', owners)).toBe(false);
    expect(isOwner('admin@example.com', owners)).toBe(false);
  });
});

describe('the connection', () => {
  it('carries the key as a base64url subprotocol, as the server reads it', () => {
    const key = 'pk_abc+/?é';
    const [ours, carrier] = shellProtocols(key);
    expect(ours).toBe('platform.console.v1');
    const encoded = carrier!.slice('base64url.bearer.authorization.platform.io.'.length);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(encoded, 'base64url').toString('utf8')).toBe(key);
    expect(base64url('a')).toBe('YQ');
  });

  it('addresses the shell over ws or wss like the page', () => {
    expect(shellUrl('http://localhost:8000', 'default.bot')).toBe(
      'ws://localhost:8000/v1/agents/default.bot/console/shell',
    );
    expect(shellUrl('https://p.example.com', 'a.b')).toBe('wss://p.example.com/v1/agents/a.b/console/shell');
  });

  it('reads server frames and refuses anything else', () => {
    expect(parseServerFrame('{"type":"stdout","data":"hi\\n"}')).toEqual({ type: 'stdout', data: 'hi\n' });
    expect(parseServerFrame('{"type":"exit","code":2}')).toEqual({ type: 'exit', code: 2 });
    expect(parseServerFrame('{"type":"stdout"}')).toBeUndefined();
    expect(parseServerFrame('nope')).toBeUndefined();
    expect(JSON.parse(stdinFrame('ls'))).toEqual({ type: 'stdin', data: 'ls\n' });
  });

  it('says why a session ended', () => {
    expect(closeWords(1000, '', 0)).toBe('The shell exited with code 0.');
    expect(closeWords(1000, 'idle for 900 s', undefined)).toBe('The session ended: idle for 900 s.');
    expect(closeWords(1008, 'a frame is not JSON', undefined)).toMatch(/a frame is not JSON/);
    expect(closeWords(1006, '', undefined)).toBe('The connection to the shell was lost.');
  });
});

describe('command history', () => {
  it('goes back and forth with the arrow keys and keeps the line being typed', () => {
    let h = remember(remember(remember(emptyHistory(), 'ls'), 'pwd'), 'pwd');
    expect(h.entries).toEqual(['ls', 'pwd']);
    let r = browse(h, -1, 'ech');
    expect(r.line).toBe('pwd');
    r = browse(r.history, -1, r.line);
    expect(r.line).toBe('ls');
    r = browse(r.history, -1, r.line);
    expect(r.line).toBe('ls');
    r = browse(r.history, 1, r.line);
    expect(r.line).toBe('pwd');
    r = browse(r.history, 1, r.line);
    expect(r.line).toBe('ech');
    h = remember(r.history, '   ');
    expect(h.entries).toEqual(['ls', 'pwd']);
  });
});

describe('appendOutput', () => {
  it('drops terminal escapes and keeps the newest text within the bound', () => {
    expect(appendOutput('', '\u001b[1;32mgreen\u001b[0m\r\nnext')).toBe('green\r\nnext');
    expect(appendOutput('abcdef', 'gh', 5)).toBe('defgh');
  });
});
