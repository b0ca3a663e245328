// Reads a Dockerfile's final stage: its labels (with ARG defaults applied),
// USER and ENTRYPOINT. Checks the auditor image rules (spec: Auditor
// contract): the four io.platform labels and a non-root user. Reusable by the
// CLI's `auditor verify`.

export interface FinalStage {
  labels: Record<string, string>;
  user?: string;
  entrypoint?: string;
}

/** Joins continuation lines and drops comments. */
function instructions(text: string): string[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function tokens(args: string): string[] {
  return [...args.matchAll(/([\w.-]+)=("(?:[^"\\]|\\.)*"|\S+)/g)].map((m) => `${m[1]}=${m[2]}`);
}

function unquote(v: string): string {
  return v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}

interface Parser {
  globalArgs: Record<string, string>;
  args: Record<string, string>;
  stage?: FinalStage;
}

function expand(p: Parser, v: string): string {
  return unquote(v).replace(/\$\{?(\w+)\}?/g, (_m, n: string) => p.args[n] ?? p.globalArgs[n] ?? '');
}

function applyArg(p: Parser, body: string): void {
  for (const t of body.includes('=') ? tokens(body) : [`${body}=`]) {
    const eq = t.indexOf('=');
    (p.stage ? p.args : p.globalArgs)[t.slice(0, eq)] = unquote(t.slice(eq + 1));
  }
}

function apply(p: Parser, word: string, body: string): void {
  if (word === 'FROM') {
    p.stage = { labels: {} };
    p.args = {};
  } else if (word === 'ARG') applyArg(p, body);
  else if (!p.stage) return;
  else if (word === 'LABEL') {
    for (const t of tokens(body))
      p.stage.labels[t.slice(0, t.indexOf('='))] = expand(p, t.slice(t.indexOf('=') + 1));
  } else if (word === 'USER') p.stage.user = expand(p, body);
  else if (word === 'ENTRYPOINT') p.stage.entrypoint = body;
}

export function finalStage(text: string): FinalStage {
  const parser: Parser = { globalArgs: {}, args: {} };
  for (const line of instructions(text)) {
    const [word = '', ...rest] = line.split(/\s+/);
    apply(parser, word.toUpperCase(), rest.join(' '));
  }
  return parser.stage ?? { labels: {} };
}

/** Whether USER names a non-root user: set, not `root`, and not uid 0. */
export function isNonRootUser(user: string | undefined): boolean {
  if (!user) return false;
  const name = user.split(':')[0] ?? '';
  return name !== '' && name !== 'root' && name !== '0';
}

/** The auditor image rules (spec: Auditor contract) over an image's labels and user. */
export function imageRuleProblems(image: {
  labels: Record<string, string>;
  user?: string | undefined;
}): string[] {
  const problems: string[] = [];
  const want: Record<string, (v: string) => boolean> = {
    'io.platform.auditor': (v) => v === 'true',
    'io.platform.schema_version': (v) => /^2\.\d+$/.test(v),
    'io.platform.phase': (v) => /^(request|response|artifact|execution)$/.test(v),
    'io.platform.interfaces': (v) =>
      ['health', 'claims', 'vocabulary'].every((i) => v.split(',').includes(i)),
  };
  for (const [label, ok] of Object.entries(want)) {
    const v = image.labels[label];
    if (v === undefined) problems.push(`label ${label} is missing`);
    else if (!ok(v)) problems.push(`label ${label}=${JSON.stringify(v)} is not valid`);
  }
  if (!isNonRootUser(image.user)) problems.push(`the image runs as ${image.user || 'root (no USER)'}`);
  return problems;
}

export function auditorImageProblems(text: string): string[] {
  return imageRuleProblems(finalStage(text)).map((p) =>
    p.startsWith('the image runs as') ? p.replace('the image', 'the final stage') : p,
  );
}
