import { describe, expect, it } from 'vitest';
import { syntaxProblem } from './body.ts';

const complaint = (raw: string): string => {
  try {
    JSON.parse(raw);
  } catch (err) {
    return syntaxProblem(err as Error);
  }
  throw new Error('parsed');
};

describe('syntaxProblem', () => {
  it('keeps what is wrong but not the excerpt of the body the parser quotes', () => {
    expect(complaint('pk_0123456789abcdef_secretsecret')).toBe("Unexpected token 'p'");
    expect(complaint('{"token": hunter2hunter2}')).toBe("Unexpected token 'h'");
    expect(complaint('{"spec": {"a": ')).toBe('Unexpected end of JSON input');
  });

  it('spells out characters it would otherwise repeat raw', () => {
    expect(complaint('\u007f')).toBe("Unexpected token 'U+007F'");
  });
});
