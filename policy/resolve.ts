// Resolution of detection overrides at run time (spec: AuditorPolicy). The
// Gateway hands auditors resolved values only: for each claim/setting the
// policy chain's value, org first, then workspace where the org's mode
// allows it. Auditors themselves fall back to their environment and the
// declared default for settings no policy sets.
import type { SettingValue, Vocabulary } from '../auditors/sdk/types.ts';
import { breach } from './enforcement.ts';
import type { PolicyRecord, ResolvedDetection } from './types.ts';

type Override = NonNullable<PolicyRecord['spec']['detection']>[string][string];

/** A policy's overrides as `[claim, key, override]`, in declaration order. */
function overridesOf(policy: PolicyRecord): [string, string, Override][] {
  return Object.entries(policy.spec.detection ?? {}).flatMap(([claim, settings]) =>
    Object.entries(settings).map(([key, o]): [string, string, Override] => [claim, key, o]),
  );
}

/** Resolves the chain `[org, …, workspace]`; a child value that breaks a parent's mode is ignored. */
export function resolveDetection(chain: PolicyRecord[]): ResolvedDetection {
  const out: ResolvedDetection = {};
  const locks = new Map<string, { mode: string; value: unknown }>();
  for (const [claim, key, o] of chain.flatMap(overridesOf)) {
    const id = `${claim}\u0000${key}`;
    const lock = locks.get(id);
    if (lock && breach(lock.mode as never, lock.value, o.value)) continue;
    (out[claim] ??= {})[key] = o.value as SettingValue;
    const mode = o.enforcement ?? 'unlocked';
    if (mode !== 'unlocked' && !lock) locks.set(id, { mode, value: o.value });
  }
  return out;
}

/** The part of `resolved` an auditor's vocabulary declares (claims and their setting keys). */
export function overridesFor(
  resolved: ResolvedDetection,
  vocabulary: Vocabulary | undefined,
): ResolvedDetection {
  if (!vocabulary) return {};
  const out: ResolvedDetection = {};
  for (const entry of vocabulary.vocabulary) {
    const wanted = resolved[entry.name];
    if (!wanted) continue;
    const keys = new Set((entry.settings ?? []).map((s) => s.key));
    const picked = Object.entries(wanted).filter(([k]) => keys.has(k));
    if (picked.length > 0) out[entry.name] = Object.fromEntries(picked);
  }
  return out;
}
