// The `/claims` pipeline without HTTP: validate the parsed body, resolve
// settings, run `audit()` under a deadline, enforce the claim guarantees and
// shape the envelope. Also bounds concurrency. The HTTP layer only reads
// bytes and writes the answer.
import { enforceClaims, type Stamp } from './enforce.ts';
import { AuditorError, envelopeFromThrown, errorEnvelope, invalidInput } from './errors.ts';
import {
  effectiveSettings,
  overrideProblems,
  resolveSetting,
  type Overrides,
  type SettingsTable,
} from './settings.ts';
import type {
  AuditContext,
  AuditorDefinition,
  Claim,
  ClaimsRequest,
  ClaimsResponse,
  SettingValue,
  VocabularyEntry,
} from './types.ts';
import { validateClaimsRequest } from './validate-request.ts';

export interface EngineOptions {
  def: AuditorDefinition;
  /** The id reported on the wire (PLATFORM_AUDITOR_ID, else the definition's id). */
  auditorId: string;
  timeoutMs: number;
  maxConcurrent: number;
  settings: SettingsTable;
  configuration: Record<string, SettingValue>;
  extraProvenance?: Record<string, unknown>;
  /** Called for unexpected failures; never given request content. */
  onInternalError?: (err: unknown, problems?: string[]) => void;
  now?: () => Date;
}

export interface Engine {
  readonly options: EngineOptions;
  /** A slot under the concurrency limit, or undefined when all are taken. */
  acquire(): (() => void) | undefined;
  inflight(): number;
  /** Answers one parsed `/claims` body. Never throws. */
  handle(body: unknown): Promise<ClaimsResponse>;
}

type Outcome = { kind: 'done'; claims: unknown } | { kind: 'timeout' } | { kind: 'error'; err: unknown };

const TIMEOUT = Symbol('timeout');

function overridesOf(request: ClaimsRequest): Overrides | undefined {
  return request.platform_context?.detection_overrides as Overrides | undefined;
}

function stampFor(options: EngineOptions, request: ClaimsRequest): Stamp {
  return {
    auditorId: options.auditorId,
    version: options.def.version,
    now: options.now?.() ?? new Date(),
    settingsFor: (name) => effectiveSettings(options.settings, name, overridesOf(request)),
    ...(options.extraProvenance ? { extraProvenance: options.extraProvenance } : {}),
  };
}

function auditContext(
  options: EngineOptions,
  request: ClaimsRequest,
  signal: AbortSignal,
  emitted: Claim[],
): AuditContext {
  const context: AuditContext = {
    setting: <T extends SettingValue>(claim: string, key: string) =>
      resolveSetting(options.settings, claim, key, overridesOf(request)) as T,
    signal,
    emit: (claim) => void emitted.push(claim),
    config: <T extends SettingValue>(key: string): T => {
      if (!Object.hasOwn(options.configuration, key))
        throw new Error(`configuration '${key}' is not declared`);
      return options.configuration[key] as T;
    },
  };
  return context;
}

/** Runs `audit()` under the deadline; claims emitted before a timeout stay in `emitted`. */
async function runAudit(options: EngineOptions, request: ClaimsRequest, emitted: Claim[]): Promise<Outcome> {
  const controller = new AbortController();
  const context = auditContext(options, request, controller.signal, emitted);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new AuditorError('AUDITOR_TIMEOUT', 'deadline passed'));
      resolve(TIMEOUT);
    }, options.timeoutMs);
  });
  try {
    const result = await Promise.race([
      Promise.resolve().then(() => options.def.audit(request, context)),
      deadline,
    ]);
    return result === TIMEOUT ? { kind: 'timeout' } : { kind: 'done', claims: result };
  } catch (err) {
    return controller.signal.aborted ? { kind: 'timeout' } : { kind: 'error', err };
  } finally {
    clearTimeout(timer);
  }
}

/** A counter of requests in flight, refusing a slot at `max`. */
function concurrencyGate(max: number): Pick<Engine, 'acquire' | 'inflight'> {
  let inflight = 0;
  return {
    inflight: () => inflight,
    acquire: () => {
      if (inflight >= max) return undefined;
      inflight++;
      let released = false;
      return () => {
        if (!released) inflight--;
        released = true;
      };
    },
  };
}

export function createEngine(options: EngineOptions): Engine {
  const { def } = options;
  const vocab = new Map<string, VocabularyEntry>(def.vocabulary.map((v) => [v.name, v]));

  const timeoutEnvelope = (request: ClaimsRequest, emitted: Claim[]): ClaimsResponse => {
    const details: Record<string, unknown> = { timeout_ms: options.timeoutMs };
    const partial = enforceClaims(emitted, vocab, stampFor(options, request));
    if (partial.ok && partial.claims.length > 0) details.partial_claims = partial.claims;
    return errorEnvelope(
      'AUDITOR_TIMEOUT',
      `the auditor did not finish within ${options.timeoutMs} ms`,
      details,
    );
  };

  const finish = (request: ClaimsRequest, returned: unknown, emitted: Claim[]): ClaimsResponse => {
    const all = Array.isArray(returned)
      ? [...returned, ...emitted.filter((c) => !returned.includes(c))]
      : returned;
    const enforced = enforceClaims(all, vocab, stampFor(options, request));
    if (!enforced.ok) {
      options.onInternalError?.(new Error('claims violate the vocabulary contract'), enforced.problems);
      return errorEnvelope(
        'INTERNAL_ERROR',
        'the auditor produced claims that violate its vocabulary; none were sent',
        {
          violations: enforced.problems.length,
        },
      );
    }
    return { status: 'success', claims: enforced.claims };
  };

  const handle = async (body: unknown): Promise<ClaimsResponse> => {
    const validated = validateClaimsRequest(body, def.phases);
    if (!validated.ok) return invalidInput(validated.problems.join('; '), { problems: validated.problems });
    const request = validated.request;
    const bad = overrideProblems(options.settings, overridesOf(request));
    if (bad.length > 0) return invalidInput(bad.join('; '), { problems: bad });
    const emitted: Claim[] = [];
    const outcome = await runAudit(options, request, emitted);
    if (outcome.kind === 'timeout') return timeoutEnvelope(request, emitted);
    if (outcome.kind === 'error') {
      if (!(outcome.err instanceof AuditorError)) options.onInternalError?.(outcome.err);
      return envelopeFromThrown(outcome.err);
    }
    return finish(request, outcome.claims, emitted);
  };

  return {
    options,
    ...concurrencyGate(options.maxConcurrent),
    handle: async (body) => {
      try {
        return await handle(body);
      } catch (err) {
        options.onInternalError?.(err);
        return envelopeFromThrown(err);
      }
    },
  };
}
