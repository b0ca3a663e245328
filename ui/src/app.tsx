// The shell: a skip link, the header (who is signed in, sign out), the
// sidebar with the approvals badge, and the page the hash names. Without a
// session every page is the login page; a 401 anywhere comes back here.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { get, loadSession, saveSession, whenExpired, type Session } from './api.ts';
import { useOnChange } from './hooks.ts';
import { AgentPage } from './pages/agent.tsx';
import { AgentsPage } from './pages/agents.tsx';
import { ApprovalsPage } from './pages/approvals.tsx';
import { CatalogPage } from './pages/catalog.tsx';
import { LazyConsolePage, LazyCredentialsPage, LazyDefinitionsPage } from './pages/lazy.tsx';
import { LoginPage } from './pages/login.tsx';
import { NewAgentPage } from './pages/new-agent.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { hrefOf, parseRoute, type Route } from './route.ts';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const f = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', f);
    return () => window.removeEventListener('hashchange', f);
  }, []);
  return route;
}

/** The pending count of the badge, polled and refreshed on every change. */
function useBadge(session: Session | undefined): number | undefined {
  const [count, setCount] = useState<number | undefined>(undefined);
  const refresh = useCallback(() => {
    if (!session) return;
    get<{ count: number }>('/v1/notifications/count').then(
      (c) => setCount(c.count),
      () => undefined,
    );
  }, [session]);
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, 15_000);
    return () => clearInterval(timer);
  }, [refresh]);
  useOnChange(refresh);
  return count;
}

function Sidebar({ route, badge }: { route: Route; badge: number | undefined }) {
  const current = (page: Route['page']) => (route.page === page ? 'page' : undefined);
  return (
    <nav class="sidebar" aria-label="Main">
      <ul>
        <li>
          <a
            href={hrefOf({ page: 'agents' })}
            aria-current={current('agents') ?? current('agent') ?? current('console') ?? current('new-agent')}
          >
            Agents
          </a>
        </li>
        <li>
          <a href={hrefOf({ page: 'approvals', tab: 'pending' })} aria-current={current('approvals')}>
            Approvals
            {badge ? (
              <span class="badge" data-testid="approvals-badge" aria-label={`${badge} pending`}>
                {badge}
              </span>
            ) : null}
          </a>
        </li>
        <li>
          <a href={hrefOf({ page: 'catalog' })} aria-current={current('catalog')}>
            App catalog
          </a>
        </li>
        <li>
          <a href={hrefOf({ page: 'settings' })} aria-current={current('settings')}>
            Settings
          </a>
        </li>
        <li>
          <a href={hrefOf({ page: 'credentials' })} aria-current={current('credentials')}>
            Credentials &amp; tools
          </a>
        </li>
        <li>
          <a href={hrefOf({ page: 'definitions', tab: 'definition' })} aria-current={current('definitions')}>
            Definitions
          </a>
        </li>
      </ul>
    </nav>
  );
}

function Page({ route, session }: { route: Route; session: Session }) {
  switch (route.page) {
    case 'agent':
      return <AgentPage id={route.id} who={session.who} />;
    case 'console':
      return <LazyConsolePage key={route.id} id={route.id} who={session.who} />;
    case 'approvals':
      return <ApprovalsPage tab={route.tab} who={session.who} />;
    case 'new-agent':
      return <NewAgentPage who={session.who} />;
    case 'catalog':
      return <CatalogPage />;
    case 'definitions':
      return <LazyDefinitionsPage tab={route.tab} />;
    case 'settings':
      return <SettingsPage key={hrefOf(route)} target={route.target} />;
    case 'credentials':
      return <LazyCredentialsPage key={hrefOf(route)} target={route.target} />;
    case 'not-found':
      return (
        <section aria-labelledby="nf">
          <h1 id="nf">Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <a href="#/agents">Go to the agents</a>.
          </p>
        </section>
      );
    default:
      return <AgentsPage />;
  }
}

function Layout({
  route,
  session,
  badge,
  onSignOut,
}: {
  route: Route;
  session: Session;
  badge: number | undefined;
  onSignOut: () => void;
}) {
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}
      >
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Agent Platform</span>
        <span class="who">
          Signed in as <strong>{session.who.subject}</strong>
        </span>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <Sidebar route={route} badge={badge} />
      <main id="main" tabIndex={-1}>
        <Page route={route} session={session} />
      </main>
    </>
  );
}

/**
 * A 401 shows the login page over the current page, which stays mounted
 * (hidden): after signing in again as the same person, nothing typed is lost.
 */
export function App() {
  const route = useRoute();
  const [session, setSession] = useState(loadSession);
  const [shown, setShown] = useState(session);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const badge = useBadge(session);
  useEffect(() => {
    whenExpired((message) => {
      setNotice(message);
      setSession(undefined);
      window.dispatchEvent(new Event('platform:expired'));
    });
  }, []);
  const signIn = (s: Session) => {
    saveSession(s);
    setNotice(undefined);
    setSession(s);
    setShown(s);
    if (route.page === 'login') location.hash = '#/agents';
    requestAnimationFrame(() => window.dispatchEvent(new Event('platform:resumed')));
  };
  const signOut = () => {
    saveSession(undefined);
    setNotice('You are signed out.');
    setSession(undefined);
    setShown(undefined);
  };
  const login = !session || route.page === 'login';
  return (
    <>
      {login ? <LoginPage notice={notice} onSignedIn={signIn} /> : null}
      {shown ? (
        <div class="layout" hidden={login} key={shown.who.subject}>
          <Layout route={route} session={shown} badge={badge} onSignOut={signOut} />
        </div>
      ) : null}
    </>
  );
}
