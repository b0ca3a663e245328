// `platform run model`: a local OpenAI-compatible model server that answers
// deterministically, for tests, demos and sample agents that need a model
// without a network or an API key. The API and the ops endpoints share one port.
import { newRegistry } from '../base/ops-server.ts';
import { startHttpService } from '../base/http-service.ts';
import type { RoleRunner } from '../base/role.ts';
import { loadModelSettings } from './config.ts';
import { internalError, modelHandler, routeOf } from './server.ts';

/** Open requests get this long to finish on SIGTERM (answers are immediate, so it is rarely used). */
const DRAIN_MS = 2_000;

export const runModel: RoleRunner = async (context) => {
  const s = loadModelSettings(context.env, context.flags);
  const registry = newRegistry('model');
  const service = await startHttpService({
    host: s.host,
    port: s.port,
    registry,
    log: context.log,
    handle: modelHandler({
      modelIds: s.modelIds,
      maxBodyBytes: s.maxBodyBytes,
      created: Math.floor(Date.now() / 1000),
      registry,
    }),
    routeOf,
    readiness: () => '',
    internalError,
  });
  context.log.info({ port: service.port, host: s.host, models: s.modelIds }, 'model server listening');
  context.lifecycle.onStop('model http server', () => service.close(DRAIN_MS));
};
