import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arithmeticAnswer, lastUserText, replyText, summarize } from './reply.ts';

const ask = (text: string): { role: string; text: string }[] => [{ role: 'user', text }];

describe('replyText', () => {
  it('gives the same answer to the same conversation, every time', () => {
    fc.assert(
      fc.property(fc.string(), (prompt) => {
        expect(replyText('local-echo', ask(prompt))).toBe(replyText('local-echo', ask(prompt)));
      }),
    );
  });

  it('answers simple arithmetic exactly', () => {
    expect(replyText('m', ask('What is 2+2?'))).toBe('2 + 2 = 4.');
    expect(arithmeticAnswer('7 * 6')).toBe('7 × 6 = 42.');
    expect(arithmeticAnswer('calculate 10 / 4')).toBe('10 ÷ 4 = 2.5.');
    expect(arithmeticAnswer('0.1 + 0.2 =')).toBe('0.1 + 0.2 = 0.3.');
    expect(arithmeticAnswer('5 - -3')).toBe('5 - -3 = 8.');
    expect(arithmeticAnswer('1 / 0')).toBe('1 ÷ 0 has no answer: division by zero is undefined.');
  });

  it('does not read dates or longer sentences as arithmetic', () => {
    expect(arithmeticAnswer('Meet me on 2024-01 please')).toBeUndefined();
    expect(arithmeticAnswer('I have 2+2 apples and more')).toBeUndefined();
  });

  it('greets back, naming the model', () => {
    expect(replyText('local-echo', ask('Hello!'))).toContain('I am local-echo');
  });

  it('answers about the last user message with a short summary of it', () => {
    const text = replyText('m', [
      { role: 'user', text: 'first question' },
      { role: 'assistant', text: 'an answer' },
      { role: 'user', text: 'How should I plan a small garden?' },
    ]);
    expect(text).toMatch(/^Here is a short answer to "How should I plan a small garden\?": [A-Z].+\.$/);
  });

  it('says so when there is nothing to answer', () => {
    expect(replyText('m', [{ role: 'system', text: 'Be brief.' }])).toMatch(/no user message/);
    expect(replyText('m', ask('   '))).toMatch(/empty/);
  });
});

describe('summarize', () => {
  it('keeps 12 words and 80 characters on one line, quotes softened', () => {
    expect(summarize('say "hi"\nto   me')).toBe("say 'hi' to me");
    expect(summarize('a b c d e f g h i j k l m n')).toBe('a b c d e f g h i j k l…');
    expect(summarize('x'.repeat(200))).toBe(`${'x'.repeat(80)}…`);
  });
});

describe('lastUserText', () => {
  it('is undefined without a user message', () => {
    expect(lastUserText([{ role: 'assistant', text: 'x' }])).toBeUndefined();
  });
});
