import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../base/config.ts';
import { configPath, readConfig, resolveTarget, writeConfig } from './config.ts';
import { CliError, EXIT } from './errors.ts';
import { expiryFrom } from './login.ts';
import { parseFormat, render, table } from './output.ts';
import { reportError } from './report.ts';

describe('output', () => {
  const rows = [
    { id: 'injection', claims: ['a', 'b'], health: null },
    { id: 'toxicity-long-name', claims: [], health: 'Healthy' },
  ];
  const columns = [
    { header: 'id', value: (r: (typeof rows)[number]) => r.id },
    { header: 'claims', value: (r: (typeof rows)[number]) => r.claims },
    { header: 'health', value: (r: (typeof rows)[number]) => r.health },
  ];

  it('pads columns to the widest cell, shows empty values as -', () => {
    expect(table(rows, columns)).toBe(
      'ID                   CLAIMS   HEALTH\ninjection            a,b      -\ntoxicity-long-name   -        Healthy\n',
    );
  });

  it('never passes control characters from a server to the terminal', () => {
    const out = table([{ id: 'a\u001b[31mred\u0007' }], [{ header: 'id', value: (r) => r.id }]);
    expect(out).toBe('ID\na [31mred\n');
  });

  it('prints json and yaml whole, and says when a table is empty', () => {
    expect(JSON.parse(render('json', { items: rows }, { rows, columns }))).toEqual({ items: rows });
    expect(render('yaml', { a: 1 }, { rows, columns })).toBe('a: 1\n');
    expect(render('table', {}, { rows: [], columns })).toBe('No resources found.\n');
  });

  it('refuses an unknown format as a usage error', () => {
    expect(parseFormat(undefined)).toBe('table');
    const err = (() => {
      try {
        parseFormat('xml');
      } catch (e) {
        return e as CliError;
      }
    })();
    expect(err?.exitCode).toBe(EXIT.usage);
    expect(err?.line()).toBe("unknown output format 'xml'; use -o table|json|yaml");
  });
});

describe('the config file', () => {
  it('lives at PLATFORM_CONFIG, else under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configPath({ PLATFORM_CONFIG: '/x/c.yaml', XDG_CONFIG_HOME: '/y' })).toBe('/x/c.yaml');
    expect(configPath({ XDG_CONFIG_HOME: '/y' })).toBe('/y/platform/config.yaml');
    expect(configPath({ HOME: '/home/u' })).toBe('/home/u/.config/platform/config.yaml');
  });

  it('is written with mode 0600 and read back; an absent file is empty', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cli-config-')), 'sub', 'config.yaml');
    expect(readConfig(path)).toEqual({});
    writeConfig(path, { server: 'http://h:8000', api_key: 'k', key_id: 'abcd' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfig(path)).toEqual({ server: 'http://h:8000', api_key: 'k', key_id: 'abcd' });
  });

  it('names the file when it is not YAML, and ignores fields of other types', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cli-config-')), 'config.yaml');
    writeFileSync(path, 'server: [unclosed');
    expect(() => readConfig(path)).toThrow(new RegExp(`${path} is not valid YAML`));
    writeFileSync(path, 'server: 3\napi_key: k\n');
    expect(readConfig(path)).toEqual({ api_key: 'k' });
    expect(readFileSync(path, 'utf8')).toContain('api_key');
  });
});

describe('resolveTarget', () => {
  it('takes the flag, then PLATFORM_SERVER, then the file, then loopback', () => {
    const file = { server: 'http://file:1/', api_key: 'from-file' };
    expect(resolveTarget({ server: 'http://flag:2' }, { PLATFORM_SERVER: 'http://env:3' }, file).server).toBe(
      'http://flag:2',
    );
    expect(resolveTarget({}, { PLATFORM_SERVER: 'http://env:3' }, file).server).toBe('http://env:3');
    expect(resolveTarget({}, {}, file)).toEqual({
      server: 'http://file:1',
      apiKey: 'from-file',
      keySource: 'config',
    });
    expect(resolveTarget({}, {}, {})).toEqual({ server: 'http://127.0.0.1:8000', keySource: 'none' });
  });

  it('lets PLATFORM_API_KEY override the file', () => {
    expect(resolveTarget({}, { PLATFORM_API_KEY: 'env-key' }, { api_key: 'file-key' })).toMatchObject({
      apiKey: 'env-key',
      keySource: 'env',
    });
  });

  it('refuses an address that is not http(s)', () => {
    expect(() => resolveTarget({ server: 'ftp://x' }, {}, {})).toThrow(/invalid server address 'ftp:\/\/x'/);
  });
});

describe('expiryFrom', () => {
  it('turns minutes, hours and days into an expiry, never into none', () => {
    expect(expiryFrom('90m', 0)).toBe(new Date(90 * 60_000).toISOString());
    expect(expiryFrom('2d', 0)).toBe(new Date(2 * 86_400_000).toISOString());
    expect(expiryFrom('never', 0)).toBeUndefined();
    expect(() => expiryFrom('0h', 0)).toThrow(/invalid --expires-in/);
    expect(() => expiryFrom('1w', 0)).toThrow(/invalid --expires-in/);
  });
});

describe('reportError', () => {
  const report = (err: unknown, verbose = false): { code: number; text: string } => {
    let text = '';
    const code = reportError(err, verbose, (s) => (text += s));
    return { code, text };
  };

  it('prints a CliError as one line with its hint, and its exit code', () => {
    const r = report(new CliError('unauthorized (401): expired', EXIT.auth, 'run `platform login` again'));
    expect(r).toEqual({
      code: 3,
      text: 'platform: unauthorized (401): expired; run `platform login` again\n',
    });
  });

  it('maps settings errors to usage, commander errors to usage and help to 0', () => {
    expect(report(new ConfigError(['bad value'])).code).toBe(EXIT.usage);
    expect(report(new CommanderError(1, 'commander.unknownOption', 'x')).code).toBe(EXIT.usage);
    expect(report(new CommanderError(0, 'commander.helpDisplayed', 'x')).code).toBe(0);
  });

  it('shows a stack only with --verbose', () => {
    const quiet = report(new Error('boom\nsecond line'));
    expect(quiet.text).toBe('platform: boom (run with --verbose for details)\n');
    expect(report(new Error('boom'), true).text).toMatch(/Error: boom\n {4}at /);
  });
});
