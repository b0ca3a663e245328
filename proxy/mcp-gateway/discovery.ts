// Tool discovery: at start and every MCP_GATEWAY_DISCOVERY_INTERVAL each
// server the egress bundle names is initialized and its tools listed anew.
// A server that fails keeps its last list for MCP_GATEWAY_STALE_AFTER and is
// reported (readiness details, metrics, a warning); nothing it does can stop
// the gateway. Calls reuse the session discovery opened.
import type { Logger } from '../../base/log.ts';
import type { McpServerRef } from '../../contract/egress.ts';
import { buildCatalog, readUpstreamTool, type Catalog, type UpstreamTool } from './catalog.ts';
import { UpstreamError, UpstreamSession, type UpstreamOptions } from './upstream.ts';

/** Pages of `tools/list` read from one server at most. */
const MAX_PAGES = 20;

export interface ServerStatus {
  name: string;
  url: string;
  /** '' when the last discovery succeeded. */
  error: string;
  tools: number;
  /** When the tools were last listed (ms since the epoch); 0: never. */
  listedAt: number;
}

interface ServerState {
  ref: McpServerRef;
  tools: UpstreamTool[];
  listedAt: number;
  error: string;
  session?: UpstreamSession;
}

export interface DiscoveryOptions {
  servers: () => readonly McpServerRef[];
  upstream: UpstreamOptions;
  staleAfterMs: number;
  log: Logger;
  onDiscovered?: (server: string, ok: boolean) => void;
  now?: () => number;
}

async function listTools(session: UpstreamSession, signal: AbortSignal): Promise<UpstreamTool[]> {
  const tools: UpstreamTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await session.request('tools/list', cursor ? { cursor } : {}, signal);
    if (!Array.isArray(result.tools)) throw new UpstreamError('bad_answer', 'tools/list answered no tools');
    for (const t of result.tools) {
      const tool = readUpstreamTool(t);
      if (tool) tools.push(tool);
    }
    if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return tools;
    cursor = result.nextCursor;
  }
  return tools;
}

export class McpDiscovery {
  private states = new Map<string, ServerState>();
  private timer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly o: DiscoveryOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Lists every server's tools now (a refresh already running is joined). */
  refresh(): Promise<void> {
    this.running ??= this.refreshAll().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async refreshAll(): Promise<void> {
    const refs = this.o.servers();
    const next = new Map<string, ServerState>();
    for (const ref of refs) {
      const old = this.states.get(ref.name);
      next.set(
        ref.name,
        old?.ref.url === ref.url ? old : { ref, tools: [], listedAt: 0, error: 'not yet listed' },
      );
    }
    this.states = next;
    await Promise.all([...next.values()].map((state) => this.discover(state)));
  }

  private async discover(state: ServerState): Promise<void> {
    const session = new UpstreamSession(state.ref, this.o.upstream);
    try {
      await session.open(this.stopping.signal);
      state.tools = await listTools(session, this.stopping.signal);
      state.listedAt = this.now();
      state.session = session;
      state.error = '';
      this.o.onDiscovered?.(state.ref.name, true);
    } catch (err) {
      state.error = err instanceof UpstreamError ? err.message : 'discovery failed';
      if (!(err instanceof UpstreamError))
        this.o.log.error({ err, server: state.ref.name }, 'mcp discovery failed');
      else this.o.log.warn({ server: state.ref.name, reason: state.error }, 'mcp server discovery failed');
      this.o.onDiscovered?.(state.ref.name, false);
    }
  }

  private fresh(state: ServerState): boolean {
    return state.listedAt > 0 && (state.error === '' || this.now() - state.listedAt <= this.o.staleAfterMs);
  }

  /** The tools of every server listed recently enough. */
  catalog(): Catalog {
    const lists = [...this.states.values()]
      .filter((s) => this.fresh(s))
      .map((s) => ({ server: s.ref, tools: s.tools }));
    return buildCatalog(lists);
  }

  status(): ServerStatus[] {
    return [...this.states.values()].map((s) => ({
      name: s.ref.name,
      url: s.ref.url,
      error: s.error,
      tools: this.fresh(s) ? s.tools.length : 0,
      listedAt: s.listedAt,
    }));
  }

  /**
   * A request to `server` in its session; a session the server forgot is
   * opened anew and the request sent once more (the server did not run it).
   */
  async request(
    server: McpServerRef,
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const state = this.states.get(server.name);
    let session = state?.session;
    if (session) {
      try {
        return await session.request(method, params, signal);
      } catch (err) {
        if (!(err instanceof UpstreamError) || err.code !== 'session_lost') throw err;
      }
    }
    session = new UpstreamSession(server, this.o.upstream);
    await session.open(signal);
    if (state) state.session = session;
    return session.request(method, params, signal);
  }

  start(intervalMs: number): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
  }
}
