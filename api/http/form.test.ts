import { describe, expect, it } from 'vitest';
import { parseForm } from './form.ts';

describe('parseForm', () => {
  it('decodes percent-encoding and +, drops empty values, keeps __proto__ a plain name', () => {
    const f = parseForm('grant_type=client_credentials&scope=a+b%2Fc&audience=&__proto__=x');
    expect(f).toEqual({ grant_type: 'client_credentials', scope: 'a b/c', ['__proto__']: 'x' });
    expect(Object.getPrototypeOf(f)).toBe(Object.prototype);
  });

  it.each([
    ['a=%zz', 'percent-encoded'],
    ['a=%C3', 'percent-encoded'],
    ['=x', 'without a name'],
    ['a=1&a=2', 'more than once'],
  ])('refuses %s with 400', (raw, why) => {
    expect(() => parseForm(raw)).toThrow(expect.objectContaining({ status: 400, code: 'malformed_form' }));
    expect(() => parseForm(raw)).toThrow(why);
  });
});
