// The OAuth popup flow: start it on the server, open the provider's page in a
// popup, and learn the outcome from the callback page's postMessage or, if
// that is lost or the popup was blocked, by polling the session. Offered only
// when the server has the flow (GET /v1/scoped-credentials/oauth/providers;
// a 404 hides it). The same flow reconnects an existing OAuth credential.
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, get } from '../api.ts';
import { oauthMessage, oauthSession, oauthWords, type OAuthOutcome } from '../credentials-model.ts';
import { describeError } from '../errors.ts';

export interface Provider {
  service: string;
  display_name: string;
  scopes: string[];
}

/** The providers the server connects by OAuth; [] when it has no OAuth flow (404) or none is configured. */
export function useOAuthProviders(): Provider[] {
  const [providers, setProviders] = useState<Provider[]>([]);
  useEffect(() => {
    let live = true;
    get<{ items: Provider[] }>('/v1/scoped-credentials/oauth/providers').then(
      (r) => live && setProviders(r.items ?? []),
      // 404: this server has no OAuth flow; any other failure hides it too.
      () => live && setProviders([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

export interface FlowState {
  phase: 'idle' | 'waiting' | 'blocked' | 'done' | 'error';
  words?: string;
  /** The provider's page, offered as a link when the popup was blocked. */
  url?: string;
}

interface Started {
  authorization_url: string;
  state: string;
  expires_at: string;
}

const POLL_MS = 1500;

/** Waiting for the popup; or, when the browser blocked it, the link to open it by hand. */
const openedState = (opened: boolean, started: Started, service: string): FlowState =>
  opened
    ? { phase: 'waiting', words: oauthWords({ status: 'pending' }, service) }
    : {
        phase: 'blocked',
        url: started.authorization_url,
        words: `The browser blocked the sign-in window for ${service}. Open it with the link below; this page notices when you are done.`,
      };

/** Runs one OAuth connection at a time; `onConnected` is told when a credential was connected. */
export function useOAuthFlow(onConnected: (service: string) => void) {
  const [flow, setFlow] = useState<FlowState>({ phase: 'idle' });
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);

  const watch = (started: Started, service: string) => {
    let over = false;
    const finish = (o: OAuthOutcome) => {
      if (over || o.status === 'pending') return;
      stop.current();
      setFlow({ phase: o.status === 'connected' ? 'done' : 'error', words: oauthWords(o, service) });
      if (o.status === 'connected') onConnected(service);
    };
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== location.origin) return;
      const o = oauthMessage(e.data, started.state);
      if (o) finish(o);
    };
    const deadline = Date.parse(started.expires_at);
    const poll = async () => {
      if (Date.now() > deadline) {
        return finish({ status: 'error', error: { message: 'the sign-in window expired; start again' } });
      }
      const body = await call(
        'GET',
        `/v1/scoped-credentials/oauth/sessions/${encodeURIComponent(started.state)}`,
      );
      const o = oauthSession(body);
      if (o) finish(o);
    };
    const timer = setInterval(() => void poll().catch(() => undefined), POLL_MS);
    window.addEventListener('message', onMessage);
    stop.current = () => {
      over = true;
      clearInterval(timer);
      window.removeEventListener('message', onMessage);
    };
  };

  /**
   * Starts a sign-in: a new credential (`oauth/start` with its body) or new tokens
   * for an existing one (`{id}/reconnect`, no body). Returns the refusal in words.
   */
  const start = async (
    path: string,
    body: Record<string, unknown> | undefined,
    service: string,
  ): Promise<string | undefined> => {
    stop.current();
    try {
      const started = await call<Started>('POST', path, body);
      const popup = window.open(started.authorization_url, 'platform-oauth', 'popup,width=520,height=680');
      setFlow(openedState(popup !== null, started, service));
      watch(started, service);
      return undefined;
    } catch (err) {
      setFlow({ phase: 'idle' });
      return describeError(err);
    }
  };
  return { flow, start, reset: () => (stop.current(), setFlow({ phase: 'idle' })) };
}
