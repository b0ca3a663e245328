// Offline BPE token counting with gpt-tokenizer: the model id picks the
// encoding and the context window; models the package does not know are
// counted with o200k_base and marked approximate.
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import * as models from 'gpt-tokenizer/models';

type CountFn = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;

/** Encodings shipped as importable modules; legacy ones (r50k, p50k) are approximated by cl100k_base. */
const ENCODINGS = {
  o200k_base: () => import('gpt-tokenizer/encoding/o200k_base'),
  cl100k_base: () => import('gpt-tokenizer/encoding/cl100k_base'),
  o200k_harmony: () => import('gpt-tokenizer/encoding/o200k_harmony'),
} as const;
export type EncodingName = keyof typeof ENCODINGS;
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

export interface ModelInfo {
  /** The id as the tokenizer knows it (provider prefix removed), or undefined when unknown. */
  known?: string;
  encoding: EncodingName;
  /** Exact when the model's own encoding is used. */
  exact: boolean;
  contextWindow?: number;
}

const MODEL_SPECS = models as unknown as Record<string, { context_window?: number } | undefined>;
const ENCODING_OF = modelToEncodingMap as Record<string, string | undefined>;

/** `openai/gpt-4o` → `gpt-4o`. */
function stripProvider(modelId: string): string {
  const slash = modelId.lastIndexOf('/');
  return slash >= 0 ? modelId.slice(slash + 1) : modelId;
}

export function modelInfo(modelId: string): ModelInfo {
  const id = stripProvider(modelId.trim());
  const spec = Object.hasOwn(MODEL_SPECS, id) ? MODEL_SPECS[id] : undefined;
  if (!spec) return { encoding: DEFAULT_ENCODING, exact: false };
  const named = ENCODING_OF[id] ?? DEFAULT_ENCODING;
  const shipped = Object.hasOwn(ENCODINGS, named);
  const info: ModelInfo = {
    known: id,
    encoding: shipped ? (named as EncodingName) : 'cl100k_base',
    exact: shipped,
  };
  if (spec.context_window) info.contextWindow = spec.context_window;
  return info;
}

export class Tokenizers {
  private readonly loaded = new Map<EncodingName, CountFn>();

  /** Loads the encodings' rank tables up front (start-up, not the first request, pays for them). */
  async preload(names: EncodingName[] = ['o200k_base', 'cl100k_base']): Promise<void> {
    for (const name of names) await this.get(name);
  }

  async get(name: EncodingName): Promise<CountFn> {
    let fn = this.loaded.get(name);
    if (!fn) {
      fn = (await ENCODINGS[name]()).countTokens as CountFn;
      this.loaded.set(name, fn);
    }
    return fn;
  }

  /** Counts tokens; special-token text such as `<|endoftext|>` in user input counts as ordinary text. */
  async count(name: EncodingName, text: string): Promise<number> {
    if (text === '') return 0;
    return (await this.get(name))(text, { disallowedSpecial: new Set() });
  }
}
