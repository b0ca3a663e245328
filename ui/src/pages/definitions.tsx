// #/definitions: the definition editor (issue 22 step 8). Two tabs: the
// definition file (PlatformAgent, PlatformWorkspace, PlatformEnvironment)
// and the user-context markdown. Loaded on demand (lazy.tsx):
// the YAML library stays out of the other pages' bundle.
import { hrefOf } from '../route.ts';
import { DefinitionEditor } from './definition-editor.tsx';
import { UserContextEditor } from './user-context-editor.tsx';

type Tab = 'definition' | 'user-context';
const TABS: { id: Tab; label: string }[] = [
  { id: 'definition', label: 'Definition file' },
  { id: 'user-context', label: 'User context' },
];

export function DefinitionsPage({ tab }: { tab: Tab }) {
  const go = (t: Tab) => (location.hash = hrefOf({ page: 'definitions', tab: t }));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next = tab === 'definition' ? 'user-context' : 'definition';
    go(next);
    requestAnimationFrame(() => document.getElementById(`tab-${next}`)?.focus());
  };
  return (
    <section aria-labelledby="definitions-title">
      <h1 id="definitions-title">Definitions</h1>
      <div role="tablist" aria-label="Definitions" class="tabs" onKeyDown={onKeyDown}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={tab === t.id ? `panel-${t.id}` : undefined}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => go(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* Both stay mounted: switching tabs loses nothing typed. */}
      <div
        role="tabpanel"
        id="panel-definition"
        aria-labelledby="tab-definition"
        hidden={tab !== 'definition'}
      >
        <DefinitionEditor />
      </div>
      <div
        role="tabpanel"
        id="panel-user-context"
        aria-labelledby="tab-user-context"
        hidden={tab !== 'user-context'}
      >
        <UserContextEditor />
      </div>
    </section>
  );
}
