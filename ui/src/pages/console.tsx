// One agent's console (spec: Console): the log stream, the subagent tree with
// drill-down, and the interactive shell. The shell is rendered for the
// agent's Owners only (the passport's shares and whoami decide; the server
// refuses anyone else anyway).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { agentPath, get } from '../api.ts';
import { Alert } from '../components.tsx';
import { NO_FILTERS, type Filters } from '../console-model.ts';
import { useLoad } from '../hooks.ts';
import type { Share, Whoami } from '../model.ts';
import { hrefOf } from '../route.ts';
import { isOwner } from '../shell-model.ts';
import { LogPanel } from './console-log.tsx';
import { ShellPanel } from './console-shell.tsx';
import { TreePanel, type Tree } from './console-tree.tsx';

const TREE_REFRESH_MS = 10_000;

export function ConsolePage({ id, who }: { id: string; who: Whoami }) {
  const passport = useLoad(() => get<{ owners: Share[] }>(agentPath(id, '/passport')), [id]);
  const tree = useLoad(() => get<Tree>(agentPath(id, '/console/subagents')), [id]);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const reloadTree = tree.reload;
  useEffect(() => {
    const timer = setInterval(reloadTree, TREE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reloadTree]);
  const select = useCallback((subagent: string) => setFilters((f) => ({ ...f, subagent })), []);
  const subagents = (tree.data?.nodes ?? []).filter((n) => n.kind === 'subagent').map((n) => n.name);
  const owner = passport.data ? isOwner(who.subject, passport.data.owners) : false;
  return (
    <section aria-labelledby="console-title" class="console">
      <p class="crumbs">
        <a href="#/agents">Agents</a> / <a href={hrefOf({ page: 'agent', id })}>{id}</a> / console
      </p>
      <h1 id="console-title">Console of {id}</h1>
      <Alert text={passport.error} />
      <div class="console-grid">
        <LogPanel agentId={id} filters={filters} subagents={subagents} onFilters={setFilters} />
        <TreePanel tree={tree.data} error={tree.error} selected={filters.subagent} onSelect={select} />
      </div>
      {owner ? <ShellPanel agentId={id} /> : null}
    </section>
  );
}
