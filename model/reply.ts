// The local model's answer: a short, helpful-sounding sentence derived only
// from the request, so the same request always gets the same text and tests
// (and Evidence) can name the exact answer. Nothing here is random.
import { createHash } from 'node:crypto';
import type { ChatMessage } from './request.ts';

/** The text of the last user message; the answer is about it. */
export function lastUserText(messages: readonly ChatMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return messages[i]!.text;
  return undefined;
}

const ARITHMETIC =
  /^(?:(?:what\s+is|what's|calculate|compute|how\s+much\s+is)\s+)?(-?\d{1,12}(?:\.\d{1,6})?)\s*([-+*/x×÷])\s*(-?\d{1,12}(?:\.\d{1,6})?)\s*=?\s*\??$/i;

const OPERATIONS: Record<string, { sign: string; apply: (a: number, b: number) => number }> = {
  '+': { sign: '+', apply: (a, b) => a + b },
  '-': { sign: '-', apply: (a, b) => a - b },
  '*': { sign: '×', apply: (a, b) => a * b },
  x: { sign: '×', apply: (a, b) => a * b },
  '×': { sign: '×', apply: (a, b) => a * b },
  '/': { sign: '÷', apply: (a, b) => a / b },
  '÷': { sign: '÷', apply: (a, b) => a / b },
};

/** `2 + 2 = 4.` for a prompt that is one simple calculation ("What is 2+2?"), else undefined. */
export function arithmeticAnswer(prompt: string): string | undefined {
  const m = ARITHMETIC.exec(prompt.trim());
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[3])];
  const op = OPERATIONS[m[2]!.toLowerCase()]!;
  if (op.sign === '÷' && b === 0) return `${a} ÷ 0 has no answer: division by zero is undefined.`;
  // Rounded so that 0.1 + 0.2 reads 0.3, as a person would write it.
  const result = Number(op.apply(a, b).toFixed(6));
  return `${a} ${op.sign} ${b} = ${result}.`;
}

const GREETING = /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b[\s!.,]*$/i;

/** At most 12 words and 80 characters of the prompt, on one line, with an ellipsis when cut. */
export function summarize(prompt: string): string {
  const words = prompt.replace(/["“”]/g, "'").split(/\s+/).filter(Boolean);
  let out = words.slice(0, 12).join(' ');
  let cut = words.length > 12;
  if (out.length > 80) {
    out = out.slice(0, 80).trimEnd();
    cut = true;
  }
  return cut ? `${out}…` : out;
}

const ADVICE = [
  'Start with the simplest option, check the result, and adjust from there.',
  'Break it into smaller parts and answer each one in turn.',
  'Write down what you already know, decide what matters most, and take one small step you can verify.',
  'Keep it simple, note your assumptions, and test them one at a time.',
  'Look at a concrete example first; the general rule is usually easier to see from there.',
  'Compare two or three options side by side before you commit to one.',
];

/** Picks one of `choices` by the prompt's hash: stable for a prompt, spread across prompts. */
function stablePick<T>(prompt: string, choices: readonly T[]): T {
  const digest = createHash('sha256').update(prompt, 'utf8').digest();
  return choices[digest.readUInt32BE(0) % choices.length]!;
}

/** The answer to a conversation: about its last user message, the same every time. */
export function replyText(model: string, messages: readonly ChatMessage[]): string {
  const prompt = lastUserText(messages);
  if (prompt === undefined) return 'There is no user message to answer yet. What would you like to ask?';
  const trimmed = prompt.trim();
  if (trimmed === '') return 'Your message was empty. What would you like to ask?';
  const sum = arithmeticAnswer(trimmed);
  if (sum) return sum;
  if (GREETING.test(trimmed))
    return `Hello! I am ${model}, a local test model that answers deterministically. What would you like to know?`;
  return `Here is a short answer to "${summarize(trimmed)}": ${stablePick(trimmed, ADVICE)}`;
}
