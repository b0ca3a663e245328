// #/definitions: the definition editor (issue 22 step 8). Two tabs: the
// definition file (PlatformAgent, PlatformWorkspace, PlatformEnvironment)
// and the user-context markdown. Loaded on demand (lazy.tsx):
// the YAML library stays out of the other pages' bundle.
import { TabList } from '../components.tsx';
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
  return (
    <section aria-labelledby="definitions-title">
      <h1 id="definitions-title">Definitions</h1>
      <TabList label="Definitions" tabs={TABS} current={tab} go={go} />
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
