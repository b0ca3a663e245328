// Pure: turns Kubernetes objects carrying placeholders into Helm template
// text. A placeholder is a string `@@N@@` put where a value, a block or a list
// item goes; the objects are written as YAML and each placeholder's line is
// then rewritten into its template action. The release namespace is `@@NS@@`
// anywhere inside a string.
import { stringify } from 'yaml';

type Token =
  | { kind: 'scalar'; expr: string }
  | { kind: 'block'; expr: string }
  | { kind: 'item'; cond: string; item: unknown };

export const NAMESPACE_TOKEN = '@@NS@@';
const YAML_OPTIONS = { lineWidth: 0 } as const;

export class TemplateBuilder {
  private readonly tokens: Token[] = [];

  /** A scalar value: `{{ expr }}` (the expression quotes strings itself). */
  scalar(expr: string): string {
    return this.add({ kind: 'scalar', expr });
  }

  /** A mapping value written from values: `key: {{- toYaml expr | nindent N }}`. */
  block(expr: string): string {
    return this.add({ kind: 'block', expr });
  }

  /** A list item present only when `cond` holds; it may hold placeholders itself. */
  item(cond: string, item: unknown): string {
    return this.add({ kind: 'item', cond, item });
  }

  /** The YAML of `docs` as one template file, placeholders rewritten. */
  render(docs: readonly unknown[]): string {
    const text = docs.map((d) => stringify(d, YAML_OPTIONS)).join('---\n');
    return this.expand(text);
  }

  private add(token: Token): string {
    this.tokens.push(token);
    return `@@${this.tokens.length - 1}@@`;
  }

  private token(index: string, kind: Token['kind']): Token {
    const token = this.tokens[Number(index)];
    if (token?.kind !== kind) throw new Error(`placeholder @@${index}@@ is not a ${kind} where it stands`);
    return token;
  }

  private expand(text: string): string {
    const items = text.replace(ITEM_LINE, (_m, indent: string, _q, i: string) => this.itemBlock(indent, i));
    const blocks = items.replace(BLOCK_LINE, (line: string, ...groups: string[]) =>
      this.blockLine(line, groups[0]!, groups[1]!, groups[3]!),
    );
    const scalars = blocks.replace(
      /(['"]?)@@(\d+)@@\1/g,
      (_m, _q, i: string) => `{{ ${(this.token(i, 'scalar') as { expr: string }).expr} }}`,
    );
    return scalars.replaceAll(NAMESPACE_TOKEN, '{{ .Release.Namespace }}');
  }

  private itemBlock(indent: string, index: string): string {
    const token = this.token(index, 'item') as Extract<Token, { kind: 'item' }>;
    const body = stringify([token.item], YAML_OPTIONS).trimEnd().replace(/^/gm, indent);
    return `{{- if ${token.cond} }}\n${body}\n{{- end }}`;
  }

  /** `key: @@N@@` of a block token; a scalar token on such a line is left for later. */
  private blockLine(line: string, indent: string, key: string, index: string): string {
    const token = this.tokens[Number(index)];
    if (token?.kind !== 'block') return line;
    const nested = indent.length + (key.startsWith('- ') ? 2 : 0) + 2;
    return `${indent}${key}: {{- toYaml ${token.expr} | nindent ${nested} }}`;
  }
}

const ITEM_LINE = /^( *)- (['"]?)@@(\d+)@@\2$/gm;
const BLOCK_LINE = /^( *)((?:- )?[^\s:'"][^:]*): (['"]?)@@(\d+)@@\3$/gm;

/** Wraps a template file's text in `{{- if cond }}` … `{{- end }}`. */
export function wrapIf(cond: string, text: string): string {
  return `{{- if ${cond} }}\n${text.trimEnd()}\n{{- end }}\n`;
}

/** A deep copy of `value` with every occurrence of `namespace` inside a string replaced by the token. */
export function withNamespaceToken<T>(value: T, namespace: string): T {
  if (typeof value === 'string') return value.replaceAll(namespace, NAMESPACE_TOKEN) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withNamespaceToken(v, namespace)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = withNamespaceToken(v, namespace);
    return out as T;
  }
  return value;
}
