// Chooses the console event log: PostgreSQL when DATABASE_URL is set (shared
// by every API replica), else one process's memory (one replica). The buffer
// bounds come from the environment; a bad value stops the start.
import { ConfigError, parseDurationMs } from '../../base/config.ts';
import type { Logger } from '../../base/log.ts';
import type { ConsoleLog } from '../../contract/console.ts';
import { MemoryConsoleLog } from './log-memory.ts';
import { PgConsoleLog } from './log-pg.ts';

export interface ConsoleBufferSettings {
  /** PLATFORM_CONSOLE_BUFFER_PER_AGENT: newest events kept per agent. */
  perAgent: number;
  /** PLATFORM_CONSOLE_BUFFER_MAX_AGE: older events are pruned (PostgreSQL). */
  maxAgeMs: number;
}

const PER_AGENT = { env: 'PLATFORM_CONSOLE_BUFFER_PER_AGENT', min: 10, max: 1_000_000, default: 1000 };
const MAX_AGE = { env: 'PLATFORM_CONSOLE_BUFFER_MAX_AGE', minMs: 60_000, default: '24h' };

function perAgentOf(env: NodeJS.ProcessEnv, problems: string[]): number {
  const text = env[PER_AGENT.env]?.trim() || String(PER_AGENT.default);
  const value = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (value >= PER_AGENT.min && value <= PER_AGENT.max) return value;
  problems.push(`${PER_AGENT.env}: expected ${PER_AGENT.min} to ${PER_AGENT.max} events, got "${text}"`);
  return NaN;
}

function maxAgeOf(env: NodeJS.ProcessEnv, problems: string[]): number {
  const text = env[MAX_AGE.env]?.trim() || MAX_AGE.default;
  const ms = parseDurationMs(text);
  if (ms !== undefined && ms >= MAX_AGE.minMs) return ms;
  problems.push(`${MAX_AGE.env}: expected a duration of at least 1m (e.g. 30m, 24h), got "${text}"`);
  return NaN;
}

/** The buffer bounds from the environment; a ConfigError naming every bad one. */
export function consoleBufferSettings(env: NodeJS.ProcessEnv): ConsoleBufferSettings {
  const problems: string[] = [];
  const settings = { perAgent: perAgentOf(env, problems), maxAgeMs: maxAgeOf(env, problems) };
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

export async function openConsoleLog(env: NodeJS.ProcessEnv, log?: Logger): Promise<ConsoleLog> {
  const { perAgent, maxAgeMs } = consoleBufferSettings(env);
  const url = env.DATABASE_URL;
  if (url) return PgConsoleLog.open(url, { perAgent, maxAgeMs, ...(log ? { log } : {}) });
  return new MemoryConsoleLog(perAgent);
}
