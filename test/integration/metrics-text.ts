// Reading Prometheus text exposition in tests: the sum of a series' samples
// whose labels include the given ones (in any order, beside any others).

export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const set = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

/** Whether any sample of `name` exists (a series registered and, for labelled ones, set at least once). */
export function hasSeries(text: string, name: string): boolean {
  return text.split('\n').some((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}
