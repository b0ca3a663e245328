import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditorImageProblems, finalStage, isNonRootUser } from './dockerfile.ts';

const dockerfile = readFileSync(join(import.meta.dirname, '..', '..', 'Dockerfile'), 'utf8');

describe('the container image definition', () => {
  it('carries the auditor OCI labels', () => {
    expect(finalStage(dockerfile).labels).toMatchObject({
      'io.platform.auditor': 'true',
      'io.platform.schema_version': '2.0',
      'io.platform.phase': 'request',
      'io.platform.interfaces': 'health,claims,vocabulary',
    });
  });

  it('runs as a numeric non-root user', () => {
    const { user } = finalStage(dockerfile);
    expect(isNonRootUser(user)).toBe(true);
    expect(user).toMatch(/^\d+(:\d+)?$/);
  });

  it('copies every folder the build compiles into the build stage', () => {
    const build = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'tsconfig.build.json'), 'utf8'),
    ) as { include: string[] };
    const copied = new Set([...dockerfile.matchAll(/^COPY (\S+) \.\/\1$/gm)].map((m) => m[1]));
    expect(build.include.filter((dir) => !copied.has(dir))).toEqual([]);
  });

  it('takes the role as its argument through the platform binary', () => {
    expect(finalStage(dockerfile).entrypoint).toContain('bin/platform.js');
    expect(auditorImageProblems(dockerfile)).toEqual([]);
  });
});

describe('auditor image checks', () => {
  it('reports a missing label, a bad label and a root user', () => {
    const text = [
      'FROM node:24',
      'LABEL io.platform.auditor="true" \\',
      '  io.platform.schema_version="1.0"',
      'USER root',
    ].join('\n');
    expect(auditorImageProblems(text)).toEqual([
      'label io.platform.schema_version="1.0" is not valid',
      'label io.platform.phase is missing',
      'label io.platform.interfaces is missing',
      'the final stage runs as root',
    ]);
  });

  it('looks only at the final stage and expands ARG defaults', () => {
    const text = [
      'FROM a AS build',
      'USER 1000',
      'FROM b',
      'ARG P=response',
      'LABEL io.platform.phase=$P',
    ].join('\n');
    expect(finalStage(text)).toEqual({ labels: { 'io.platform.phase': 'response' } });
    expect(isNonRootUser(finalStage(text).user)).toBe(false);
    expect(isNonRootUser('0:0')).toBe(false);
  });
});
