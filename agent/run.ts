// `platform run agent`: the reference agent that sample agent pods run. At
// start it calls its model once (and its tool, when set), logging each outcome;
// it serves /v1/ask and /v1/tool so a test can make it call again, and the ops
// endpoints on the same port. It is ready once the start-up calls are done,
// whatever they came to: a failed call is logged, never fatal.
import { newRegistry } from '../base/ops-server.ts';
import { startHttpService } from '../base/http-service.ts';
import type { RoleRunner } from '../base/role.ts';
import { createAgentClient } from './calls.ts';
import { loadAgentSettings } from './config.ts';
import { loggedUrl } from './input.ts';
import { agentHandler, internalError, routeOf } from './server.ts';
import { startupCalls } from './startup.ts';

/** Open requests (a model call may take a while) get this long to finish on SIGTERM. */
const DRAIN_MS = 5_000;

export const runAgent: RoleRunner = async (context) => {
  const s = loadAgentSettings(context.env, context.flags);
  const log = context.log;
  const registry = newRegistry('agent');
  const client = createAgentClient({
    modelBase: s.modelBase,
    modelId: s.modelId,
    ...(s.apiKey ? { apiKey: s.apiKey } : {}),
    timeoutMs: s.callTimeout,
    log,
    registry,
  });
  let started = false;
  const service = await startHttpService({
    host: s.host,
    port: s.port,
    registry,
    log,
    handle: agentHandler(client, s.maxBodyBytes),
    routeOf,
    readiness: () => (started ? '' : 'start-up calls in progress'),
    internalError,
  });
  log.info({ port: service.port, modelBase: loggedUrl(s.modelBase), modelId: s.modelId }, 'agent listening');
  const stopping = new AbortController();
  // Not awaited by the stop step: a call still in flight ends with the process.
  void startupCalls({
    client,
    prompt: s.prompt,
    ...(s.toolUrl ? { toolUrl: s.toolUrl } : {}),
    attempts: s.startupAttempts,
    firstDelayMs: s.retryDelay,
    signal: stopping.signal,
    log,
  })
    .catch((err: unknown) => log.error({ err }, 'start-up calls failed'))
    .finally(() => {
      started = true;
    });
  context.lifecycle.onStop('agent http server', async () => {
    stopping.abort();
    await service.close(DRAIN_MS);
  });
};
