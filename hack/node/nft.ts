// kubelet leaves iptables-nft chains behind (KUBE-FIREWALL, KUBE-KUBELET-CANARY,
// KUBE-IPTABLES-HINT) and the jumps to them. This plans their removal from the
// ruleset's JSON: the jumps, then the chains, then any table left with no rule
// at all (what iptables-nft created for them). Pure: ruleset in, commands out.

interface NftChain {
  family: string;
  table: string;
  name: string;
}
interface NftRule extends NftChain {
  chain: string;
  handle: number;
  expr?: unknown[];
}
type NftObject = { table?: { family: string; name: string }; chain?: NftChain; rule?: NftRule };

const OURS = /^KUBE-/;
const IPTABLES_TABLES = new Set(['filter', 'nat', 'mangle']);

function jumpsToOurs(rule: NftRule): boolean {
  return JSON.stringify(rule.expr ?? []).match(/"(jump|goto)":\{"target":"KUBE-/) !== null;
}

/** nft command argument vectors that remove kubelet's leftovers, in order. */
export function kubeletLeftoverCommands(rulesetJson: string): string[][] {
  const objects = (JSON.parse(rulesetJson) as { nftables?: NftObject[] }).nftables ?? [];
  const inScope = (family: string, table: string): boolean =>
    (family === 'ip' || family === 'ip6') && IPTABLES_TABLES.has(table);
  const rules = objects.flatMap((o) => (o.rule && inScope(o.rule.family, o.rule.table) ? [o.rule] : []));
  const chains = objects.flatMap((o) => (o.chain && inScope(o.chain.family, o.chain.table) ? [o.chain] : []));
  const tables = objects.flatMap((o) => (o.table && inScope(o.table.family, o.table.name) ? [o.table] : []));
  const commands: string[][] = [];
  const removed = new Set<NftRule>();
  for (const r of rules) {
    if (OURS.test(r.chain) || !jumpsToOurs(r)) continue;
    commands.push(['delete', 'rule', r.family, r.table, r.chain, 'handle', String(r.handle)]);
    removed.add(r);
  }
  for (const c of chains.filter((c) => OURS.test(c.name))) {
    commands.push(['flush', 'chain', c.family, c.table, c.name]);
    rules
      .filter((r) => r.family === c.family && r.table === c.table && r.chain === c.name)
      .forEach((r) => removed.add(r));
  }
  for (const c of chains.filter((c) => OURS.test(c.name)))
    commands.push(['delete', 'chain', c.family, c.table, c.name]);
  for (const t of tables) {
    const hasOurs = chains.some((c) => c.family === t.family && c.table === t.name && OURS.test(c.name));
    const rulesLeft = rules.some((r) => r.family === t.family && r.table === t.name && !removed.has(r));
    if (hasOurs && !rulesLeft) commands.push(['delete', 'table', t.family, t.name]);
  }
  return commands;
}
