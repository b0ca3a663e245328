// Pages fetched when first opened, as chunks of their own, so the first page
// (the agent list) parses only what it shows: the definition editor (its YAML
// library, decision 286), the console and the credentials pages.
import { useEffect, useState } from 'preact/hooks';
import type { FunctionComponent } from 'preact';
import { Alert } from '../components.tsx';

/** A component that loads `load`'s page on first render, saying so, and says in words if it cannot. */
export function lazyPage<P extends object>(
  load: () => Promise<FunctionComponent<P>>,
  what: string,
): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | undefined;
  return function LazyPage(props: P) {
    const [page, setPage] = useState<{ Page: FunctionComponent<P> } | undefined>(
      loaded ? { Page: loaded } : undefined,
    );
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (page) return;
      load().then(
        (Page) => {
          loaded = Page;
          setPage({ Page });
        },
        () => setFailed(true),
      );
    }, []);
    if (failed) return <Alert text={`Could not load ${what}. Reload the page to try again.`} />;
    if (!page) return <p role="status">Loading {what}…</p>;
    return <page.Page {...props} />;
  };
}

export const LazyDefinitionsPage = lazyPage(
  async () => (await import('./definitions.tsx')).DefinitionsPage,
  'the definition editor',
);
export const LazyConsolePage = lazyPage(
  async () => (await import('./console.tsx')).ConsolePage,
  'the console',
);
export const LazyCredentialsPage = lazyPage(
  async () => (await import('./credentials.tsx')).CredentialsPage,
  'the credentials page',
);
