import { describe, expect, it } from 'vitest';
import { auditorImageProblems } from '../../auditors/conformance/dockerfile.ts';
import { CLAIM_NAME_RE } from '../../auditors/sdk/definition.ts';
import { auditorNameProblem, claimPrefix, displayName, fill, scaffoldFiles } from './auditor-template.ts';

const files = scaffoldFiles({ name: 'keyword-watch', platformDir: '/opt/platform' });

describe('auditor init names', () => {
  it('accepts a registration id and refuses anything else, saying why', () => {
    expect(auditorNameProblem('keyword-watch')).toBe('');
    expect(auditorNameProblem('Keyword')).toMatch(/not a valid auditor id/);
    expect(auditorNameProblem('-x')).toMatch(/not a valid auditor id/);
    expect(auditorNameProblem('x'.repeat(64))).toMatch(/1–63/);
    expect(auditorNameProblem('9lives')).toMatch(/must start with a letter/);
  });

  it('derives snake_case claim names and a display name', () => {
    expect(claimPrefix('keyword-watch')).toBe('keyword_watch');
    expect(CLAIM_NAME_RE.test(`${claimPrefix('a-b-c9')}.matches`)).toBe(true);
    expect(displayName('keyword-watch')).toBe('Keyword watch');
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill('__ID__ __ENV___KEY __NOPE__', { ID: 'kw', ENV: 'KW' })).toBe('kw KW_KEY __NOPE__');
  });
});

describe('the scaffold', () => {
  it('holds a project, its entry point, a Dockerfile and a README', () => {
    expect(Object.keys(files).sort()).toEqual(
      [
        '.dockerignore',
        '.gitignore',
        'Dockerfile',
        'README.md',
        'package.json',
        'src/auditor.ts',
        'src/main.ts',
        'tsconfig.json',
      ].sort(),
    );
  });

  it('depends on the platform checkout by file: and runs through its platform command', () => {
    const pkg = JSON.parse(files['package.json']!) as Record<string, Record<string, string>>;
    expect(pkg.dependencies).toEqual({ 'agent-platform-operator': 'file:/opt/platform' });
    expect(pkg.scripts).toMatchObject({ dev: 'platform auditor dev .', test: 'platform auditor test .' });
    expect(pkg.main).toBe('src/main.ts');
  });

  it('has a Dockerfile that meets the auditor image rules', () => {
    expect(auditorImageProblems(files.Dockerfile!)).toEqual([]);
  });

  it('names its claims after the auditor, with no placeholder left', () => {
    expect(files['src/auditor.ts']).toContain("export const AUDITOR_ID = 'keyword-watch';");
    expect(files['src/auditor.ts']).toContain("detected: 'keyword_watch_detected'");
    expect(files['src/auditor.ts']).toContain('KEYWORD_WATCH_THRESHOLD=0.7');
    for (const content of Object.values(files)) expect(content).not.toMatch(/__[A-Z]+__/);
  });
});
