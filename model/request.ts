// The OpenAI chat-completions request as the local model server accepts it,
// checked field by field. Every problem becomes the OpenAI error shape, since
// that is what OpenAI clients parse; the first problem found is reported.

export interface OpenAiError {
  error: {
    message: string;
    type: 'invalid_request_error' | 'server_error';
    param: string | null;
    code: string | null;
  };
}

export interface ApiError {
  status: number;
  body: OpenAiError;
}

export function apiError(
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
): ApiError {
  return { status, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

export function modelNotFound(model: string): ApiError {
  return apiError(
    404,
    `The model '${model}' does not exist or you do not have access to it.`,
    'model',
    'model_not_found',
  );
}

export interface ChatMessage {
  role: string;
  /** The message's text: the string content, or its text parts joined by newlines. */
  text: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk carries the token counts. */
  includeUsage: boolean;
  /** `max_completion_tokens`, else `max_tokens`. */
  maxTokens?: number;
  temperature?: number;
  user?: string;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

type Check = (v: unknown) => string;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const positiveInteger: Check = (v) => (Number.isInteger(v) && (v as number) >= 1 ? '' : 'a positive integer');

/** Optional fields: name → what the value must be ('' when it is). Unknown fields are ignored. */
const OPTIONAL: Record<string, Check> = {
  stream: (v) => (typeof v === 'boolean' ? '' : 'a boolean'),
  stream_options: (v) =>
    isObject(v) && (v.include_usage === undefined || typeof v.include_usage === 'boolean')
      ? ''
      : 'an object {include_usage?: boolean}',
  max_tokens: positiveInteger,
  max_completion_tokens: positiveInteger,
  temperature: (v) => (typeof v === 'number' && v >= 0 && v <= 2 ? '' : 'a number between 0 and 2'),
  user: (v) => (typeof v === 'string' ? '' : 'a string'),
  // One answer per request: a client asking for more would silently get fewer.
  n: (v) => (v === 1 ? '' : '1 (this server returns one choice)'),
};

/** The text of one message's content, or the problem with it. */
function contentText(content: unknown, at: string): { text: string } | ApiError {
  if (typeof content === 'string') return { text: content };
  if (content === null || content === undefined) return { text: '' };
  if (!Array.isArray(content))
    return apiError(400, `${at} must be a string or an array of content parts.`, at, 'invalid_type');
  const texts: string[] = [];
  for (const [i, part] of content.entries()) {
    if (!isObject(part) || part.type !== 'text' || typeof part.text !== 'string')
      return apiError(
        400,
        `${at}[${i}] must be {type: 'text', text: string}; only text is supported.`,
        `${at}[${i}]`,
        'invalid_value',
      );
    texts.push(part.text);
  }
  return { text: texts.join('\n') };
}

function parseMessages(messages: unknown): ChatMessage[] | ApiError {
  if (!Array.isArray(messages) || messages.length === 0)
    return apiError(
      400,
      "'messages' must be a non-empty array of {role, content}.",
      'messages',
      'invalid_value',
    );
  const out: ChatMessage[] = [];
  for (const [i, m] of messages.entries()) {
    const at = `messages[${i}]`;
    if (!isObject(m) || typeof m.role !== 'string' || !ROLES.has(m.role))
      return apiError(
        400,
        `${at} must be {role, content} with role one of ${[...ROLES].join(', ')}.`,
        `${at}.role`,
        'invalid_value',
      );
    const content = contentText(m.content, `${at}.content`);
    if ('status' in content) return content;
    out.push({ role: m.role, text: content.text });
  }
  return out;
}

function optionProblem(body: Record<string, unknown>): ApiError | undefined {
  for (const [name, check] of Object.entries(OPTIONAL)) {
    if (body[name] === undefined || body[name] === null) continue;
    const expected = check(body[name]);
    if (expected) return apiError(400, `'${name}' must be ${expected}.`, name, 'invalid_value');
  }
  return undefined;
}

function parseJson(raw: Buffer | string): { value: unknown } | ApiError {
  try {
    return { value: JSON.parse(raw.toString()) as unknown };
  } catch {
    return apiError(400, 'We could not parse the JSON body of your request.', null, 'invalid_json');
  }
}

/** The checked optional fields, as the request carries them. */
function optionsOf(body: Record<string, unknown>): Omit<ChatRequest, 'model' | 'messages'> {
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const streamOptions = body.stream_options as { include_usage?: boolean } | null | undefined;
  return {
    stream: body.stream === true,
    includeUsage: body.stream === true && streamOptions?.include_usage === true,
    ...(typeof maxTokens === 'number' ? { maxTokens } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof body.user === 'string' ? { user: body.user } : {}),
  };
}

/** A checked request, or the 400 error to answer. The model id is checked by the caller. */
export function parseChatRequest(raw: Buffer | string): ChatRequest | ApiError {
  const parsed = parseJson(raw);
  if ('status' in parsed) return parsed;
  const body = parsed.value;
  if (!isObject(body)) return apiError(400, 'The request body must be a JSON object.', null, 'invalid_type');
  if (typeof body.model !== 'string' || body.model === '')
    return apiError(
      400,
      "'model' is required: the id of a model this server serves.",
      'model',
      'missing_required_parameter',
    );
  const messages = parseMessages(body.messages);
  if ('status' in messages) return messages;
  const problem = optionProblem(body);
  if (problem) return problem;
  return { model: body.model, messages, ...optionsOf(body) };
}
