// The definition editor, fetched when first opened: its YAML library and
// the definition-file modules are a chunk of their own (decision 286).
import { useEffect, useState } from 'preact/hooks';
import type { FunctionComponent } from 'preact';
import { Alert } from '../components.tsx';

type Page = FunctionComponent<{ tab: 'definition' | 'user-context' }>;

export function LazyDefinitionsPage({ tab }: { tab: 'definition' | 'user-context' }) {
  const [page, setPage] = useState<{ Page: Page } | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('./definitions.tsx').then(
      (m) => setPage({ Page: m.DefinitionsPage }),
      () => setFailed(true),
    );
  }, []);
  if (failed) return <Alert text="Could not load the definition editor. Reload the page to try again." />;
  if (!page) return <p role="status">Loading the definition editor…</p>;
  return <page.Page tab={tab} />;
}
