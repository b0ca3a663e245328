// The auditor contract's types (spec: Claim, Vocabulary declaration, Auditor
// contract, Auditor catalog entry). An auditor built on the SDK is a
// vocabulary plus one `audit` function; the SDK serves the HTTP contract.

export const SCHEMA_VERSION = '2.0.0';

export const CLAIM_TYPES = [
  'score_normalized',
  'boolean',
  'string',
  'string_list',
  'count',
  'duration_ms',
  'object',
] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

export const REQUEST_PHASES = ['request', 'response', 'artifact', 'execution'] as const;
export type RequestPhase = (typeof REQUEST_PHASES)[number];

export const CATALOG_PHASES = [
  'artifact_safety',
  'input_guarding',
  'execution_monitoring',
  'output_policy',
] as const;
export type CatalogPhase = (typeof CATALOG_PHASES)[number];

export const AUDITOR_CATEGORIES = [
  'security',
  'compliance',
  'observability',
  'evaluation',
  'provenance',
] as const;
export type AuditorCategory = (typeof AUDITOR_CATEGORIES)[number];

export type SettingType = 'number' | 'boolean' | 'string' | 'string[]';
export type SettingValue = number | boolean | string | string[] | null;

export interface SettingDeclaration {
  /** snake_case key, e.g. `threshold`, `ban_substrings`. Env: `<AUDITOR>_<KEY>`. */
  key: string;
  type: SettingType;
  default: SettingValue;
}

export interface VocabularyEntry {
  name: string;
  type: ClaimType;
  description: string;
  value_schema: Record<string, unknown>;
  settings?: SettingDeclaration[];
}

export interface Vocabulary {
  auditor_id: string;
  version: string;
  vocabulary: VocabularyEntry[];
  phases: RequestPhase[];
  configuration?: Record<string, { type: SettingType; default: SettingValue; description: string }>;
}

export interface Claim {
  name: string;
  type: ClaimType;
  value: unknown;
  timestamp?: string;
  confidence?: number;
  metadata?: Record<string, unknown>;
  provenance?: Record<string, unknown>;
  detail?: Record<string, unknown>;
}

export interface ClaimsRequest {
  data: {
    input?: string;
    output?: string;
    metadata?: { model_id?: string; session_id?: string; user_id?: string; [k: string]: unknown };
  };
  phase: RequestPhase;
  platform_context?: {
    trace_id?: string;
    agent_id?: string;
    workspace_id?: string;
    auditor_config?: Record<string, unknown>;
    detection_overrides?: Record<string, Record<string, SettingValue>>;
  };
}

export const ERROR_CODES = {
  AUDITOR_TIMEOUT: true,
  AUDITOR_OVERLOAD: true,
  INVALID_INPUT: false,
  UNSUPPORTED_MODEL: false,
  INTERNAL_ERROR: true,
  TEE_ATTESTATION_FAILED: false,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export type ClaimsResponse =
  | { status: 'success'; claims: Claim[] }
  | {
      status: 'error';
      claims: [];
      error: { code: ErrorCode; message: string; retryable: boolean; details?: Record<string, unknown> };
    };

export interface ClaimSettingDefinition {
  key: string;
  label: string;
  type: SettingType;
  default: SettingValue;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  control?: string;
  options?: string[];
}

export interface AuditorCatalogEntry {
  id: string;
  name: string;
  description: string;
  category: AuditorCategory;
  phase: CatalogPhase;
  icon: string;
  color: string;
  defaultPort: number;
  envVariables: { name: string; description: string; default?: string; required?: boolean }[];
  policyOptions: { key: string; label: string; description: string }[];
  defaultPolicy: { rules: unknown[]; enforcementMode: 'enforce' | 'observe' };
  claims: { name: string; type: ClaimType; description: string; settings: ClaimSettingDefinition[] }[];
}

/** What an `audit` function receives besides the request. */
export interface AuditContext {
  /**
   * The effective value of a declared setting: per-claim override from
   * `platform_context.detection_overrides` > `<AUDITOR>_<KEY>` env > default.
   */
  setting<T extends SettingValue = SettingValue>(claimName: string, key: string): T;
  /** Aborted when the auditor's deadline passes. */
  signal: AbortSignal;
  /**
   * Claims produced so far are reported as `partial_claims` on timeout. The
   * response carries the returned claims plus any emitted claim object that
   * was not also returned, so either style (emit, return, or both) works.
   */
  emit(claim: Claim): void;
  /**
   * The value of an auditor-level `configuration` entry, resolved once at
   * start-up: `<AUDITOR>_<KEY>` env > declared default. Always set by the SDK;
   * optional so that hand-built contexts (evaluation harnesses) stay valid.
   */
  config?<T extends SettingValue = SettingValue>(key: string): T;
}

/** What `load` receives: the process environment and the resolved configuration. */
export interface AuditorRuntime {
  env: NodeJS.ProcessEnv;
  /** Same resolution as `AuditContext.config`. */
  config<T extends SettingValue = SettingValue>(key: string): T;
  /** The `HTTP_TIMEOUT` deadline in milliseconds (also the per-request deadline). */
  timeoutMs: number;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export interface AuditorDefinition {
  id: string;
  version: string;
  defaultPort: number;
  phases: RequestPhase[];
  vocabulary: VocabularyEntry[];
  configuration?: Vocabulary['configuration'];
  catalog: AuditorCatalogEntry;
  /**
   * Loads models and configuration; `/health` reports `ready: false` until it
   * resolves. The SDK always passes the runtime; harnesses may call `load()`.
   */
  load?: (runtime?: AuditorRuntime) => Promise<void>;
  audit(request: ClaimsRequest, context: AuditContext): Promise<Claim[]> | Claim[];
}
