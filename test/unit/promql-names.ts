// The metric names a PromQL expression reads, for checking alerts against
// what the code registers (promtool is not available here). Enough of PromQL
// for rule files: selectors, functions, aggregations with by/without,
// vector matching, offsets, numbers and durations.

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/** Text that names no series: strings, label matchers, ranges, grouping label lists, offsets. */
function withoutNonNames(expr: string): string {
  return expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi, ' ')
    .replace(/\boffset\s+-?\w+/gi, ' ');
}

export function metricNamesOf(expr: string): string[] {
  const names = new Set<string>();
  const token = /(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?[a-zA-Z]*)|([a-zA-Z_:][\w:]*)(\s*\()?/g;
  for (const m of withoutNonNames(expr).matchAll(token)) {
    const [, number, name, call] = m;
    if (number !== undefined || name === undefined || call !== undefined) continue;
    if (!KEYWORDS.has(name.toLowerCase())) names.add(name);
  }
  return [...names];
}
