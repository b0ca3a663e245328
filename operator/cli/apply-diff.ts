// Pure: a unified diff of two texts, line by line (a longest common
// subsequence; objects are a few hundred lines at most), with the usual
// `---`/`+++` headers and `@@ -a,b +c,d @@` hunks of 3 lines of context.
type Op = { op: ' ' | '-' | '+'; line: string; a: number; b: number };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** lcs[i*(m+1)+j] = the length of the longest common subsequence of a[i..] and b[j..]. */
function lcsTable(a: readonly string[], b: readonly string[]): Uint32Array {
  const m = b.length;
  const lcs = new Uint32Array((a.length + 1) * (m + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const k = i * (m + 1) + j;
      lcs[k] = a[i] === b[j] ? lcs[k + m + 2]! + 1 : Math.max(lcs[k + m + 1]!, lcs[k + 1]!);
    }
  }
  return lcs;
}

/** The edit script from `a` to `b`: each op carries the 0-based line numbers before it in both. */
export function editScript(a: readonly string[], b: readonly string[]): Op[] {
  const [n, m] = [a.length, b.length];
  const lcs = lcsTable(a, b);
  const at = (i: number, j: number): number => lcs[i * (m + 1) + j]!;
  const ops: Op[] = [];
  let [i, j] = [0, 0];
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ op: ' ', line: a[i]!, a: i++, b: j++ });
    } else if (i < n && (j === m || at(i + 1, j) >= at(i, j + 1))) {
      ops.push({ op: '-', line: a[i]!, a: i++, b: j });
    } else {
      ops.push({ op: '+', line: b[j]!, a: i, b: j++ });
    }
  }
  return ops;
}

/** Groups changes with `context` lines around them; changes closer than 2×context share a hunk. */
function hunks(ops: readonly Op[], context: number): [number, number][] {
  const out: [number, number][] = [];
  ops.forEach((o, k) => {
    if (o.op === ' ') return;
    const start = Math.max(0, k - context);
    const end = Math.min(ops.length, k + context + 1);
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else out.push([start, end]);
  });
  return out;
}

const range = (start: number, count: number): string =>
  `${count === 0 ? start : start + 1}${count === 1 ? '' : `,${count}`}`;

function hunkText(ops: readonly Op[]): string {
  const first = ops[0]!;
  const aCount = ops.filter((o) => o.op !== '+').length;
  const bCount = ops.filter((o) => o.op !== '-').length;
  const header = `@@ -${range(first.a, aCount)} +${range(first.b, bCount)} @@`;
  return [header, ...ops.map((o) => `${o.op}${o.line}`)].join('\n');
}

/** '' when the texts are equal; else the unified diff, ending with a newline. */
export function unifiedDiff(
  from: string,
  to: string,
  labels: { from: string; to: string },
  context = 3,
): string {
  if (from === to) return '';
  const ops = editScript(splitLines(from), splitLines(to));
  const parts = hunks(ops, context).map(([s, e]) => hunkText(ops.slice(s, e)));
  if (parts.length === 0) return '';
  return `--- ${labels.from}\n+++ ${labels.to}\n${parts.join('\n')}\n`;
}
