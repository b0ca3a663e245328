// A chat completion in OpenAI's two wire forms: one `chat.completion` object,
// or `chat.completion.chunk` objects sent as server-sent events. Both come
// from the same `Completion`, so the streamed deltas always add up to the
// non-streamed message.
import { createHash } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer';
import { replyText } from './reply.ts';
import type { ChatMessage, ChatRequest } from './request.ts';

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface Completion {
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
  text: string;
  finishReason: 'stop' | 'length';
  usage: Usage;
}

const SYSTEM_FINGERPRINT = 'fp_platform_local';

/** o200k_base tokens; special-token text in a prompt counts as ordinary text instead of throwing. */
export function tokenCount(text: string): number {
  return countTokens(text, { disallowedSpecial: new Set() });
}

/** As OpenAI counts a chat prompt: each message's tokens plus 3 framing tokens, plus 3 to prime the reply. */
export function promptTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + tokenCount(m.role) + tokenCount(m.text) + 3, 3);
}

/**
 * `chatcmpl-` and a digest of what decides the answer (model, messages, token
 * limit). Streaming or not, the same question has the same id.
 */
export function completionId(req: ChatRequest): string {
  const canonical = JSON.stringify([
    req.model,
    req.messages.map((m) => [m.role, m.text]),
    req.maxTokens ?? null,
  ]);
  return `chatcmpl-${createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, 29)}`;
}

/** The text as stream deltas, word by word with the whitespace before each word; they join to `text`. */
export function deltasOf(text: string): string[] {
  const words: string[] = text.match(/\s*\S+/g) ?? [];
  // Trailing whitespace belongs to the last delta (or is the only one), so nothing is lost.
  const tail = text.slice(words.join('').length);
  if (tail && words.length > 0) words[words.length - 1] += tail;
  else if (tail) words.push(tail);
  return words;
}

/** The longest run of whole words within `maxTokens`; `length` when it had to stop early. */
export function limitTokens(text: string, maxTokens: number | undefined): { text: string; cut: boolean } {
  if (maxTokens === undefined || tokenCount(text) <= maxTokens) return { text, cut: false };
  let kept = '';
  for (const word of deltasOf(text)) {
    if (tokenCount(kept + word) > maxTokens) break;
    kept += word;
  }
  return { text: kept, cut: true };
}

export function complete(req: ChatRequest, created: number): Completion {
  const { text, cut } = limitTokens(replyText(req.model, req.messages), req.maxTokens);
  const prompt = promptTokens(req.messages);
  const completion = tokenCount(text);
  return {
    id: completionId(req),
    created,
    model: req.model,
    text,
    finishReason: cut ? 'length' : 'stop',
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

/** The non-streamed answer. */
export function completionBody(c: Completion): Record<string, unknown> {
  return {
    id: c.id,
    object: 'chat.completion',
    created: c.created,
    model: c.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: c.text, refusal: null },
        logprobs: null,
        finish_reason: c.finishReason,
      },
    ],
    usage: c.usage,
  };
}

/**
 * The streamed answer: a role delta, one content delta per word, the finish
 * reason, and with `include_usage` a last chunk with no choices and the usage
 * (every other chunk then carries `usage: null`, as OpenAI sends it).
 */
export function streamChunks(c: Completion, includeUsage: boolean): Record<string, unknown>[] {
  const head = { id: c.id, object: 'chat.completion.chunk', created: c.created, model: c.model };
  const usageNull = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, string>, finish: string | null): Record<string, unknown> => ({
    ...head,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...usageNull,
  });
  const chunks = [
    chunk({ role: 'assistant', content: '' }, null),
    ...deltasOf(c.text).map((word) => chunk({ content: word }, null)),
    chunk({}, c.finishReason),
  ];
  if (includeUsage)
    chunks.push({ ...head, system_fingerprint: SYSTEM_FINGERPRINT, choices: [], usage: c.usage });
  return chunks;
}

/** Server-sent event frames: one `data:` line per chunk, then `data: [DONE]`. */
export function sseFrames(chunks: readonly unknown[]): string[] {
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'];
}
