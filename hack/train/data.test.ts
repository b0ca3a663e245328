import { describe, expect, it } from 'vitest';
import { parseCsv } from './data.ts';

describe('parseCsv', () => {
  it('splits fields and rows, CRLF and LF alike, and drops blank lines', () => {
    expect(parseCsv('a,b\r\nc,d\n\ne,f')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('keeps commas, newlines and doubled quotes inside quoted fields', () => {
    expect(parseCsv('id,text\n1,"say ""hi"", then\nleave"\n')).toEqual([
      ['id', 'text'],
      ['1', 'say "hi", then\nleave'],
    ]);
  });

  it('keeps an empty last field and a lone CR as a row end', () => {
    expect(parseCsv('a,\rb,c')).toEqual([
      ['a', ''],
      ['b', 'c'],
    ]);
  });
});
