// Enforcement modes on detection overrides (spec: AuditorPolicy). A parent
// (org) policy's mode constrains what a child (workspace) policy may save for
// the same claim/setting. Every violation has one message that names the
// field, the mode, its constraint and the offending value: the REST API
// answers it as 422 {detail} and the admission webhook refuses with it.
import type { Detection, EnforcementMode, PolicyRecord } from './types.ts';

export interface Violation {
  /** `detection.<claim>.<setting>` */
  field: string;
  mode: EnforcementMode;
  constraint: unknown;
  value: unknown;
  /** Id of the policy that set the mode; empty for the policy's own type rules. */
  setBy: string;
  message: string;
}

type Override = Detection[string][string];

const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

function bound(value: unknown, constraint: unknown, op: '>=' | '<='): string {
  if (typeof value !== 'number') return `requires a number ${op} ${show(constraint)}`;
  const ok = op === '>=' ? value >= (constraint as number) : value <= (constraint as number);
  return ok ? '' : `requires a value ${op} ${show(constraint)}`;
}

function supersetBreach(constraint: unknown, value: unknown): string {
  const need = Array.isArray(constraint) ? constraint : [];
  if (!Array.isArray(value)) return `requires a list including ${show(need)}`;
  const missing = need.filter((item) => !value.some((v) => show(v) === show(item)));
  return missing.length === 0 ? '' : `requires a list including ${show(need)} (missing ${show(missing)})`;
}

const BREACHES: Record<EnforcementMode, (constraint: unknown, value: unknown) => string> = {
  unlocked: () => '',
  exact: (constraint, value) =>
    show(value) === show(constraint) ? '' : `requires exactly ${show(constraint)}`,
  floor: (constraint, value) => bound(value, constraint, '>='),
  ceiling: (constraint, value) => bound(value, constraint, '<='),
  superset: supersetBreach,
};

/** Why `value` breaks `mode` with `constraint`, or '' when it satisfies it. */
export function breach(mode: EnforcementMode, constraint: unknown, value: unknown): string {
  return BREACHES[mode](constraint, value);
}

function message(v: Omit<Violation, 'message'>, requirement: string): string {
  const origin = v.setBy ? ` set by policy '${v.setBy}'` : '';
  return `${v.field}: enforcement mode '${v.mode}'${origin} ${requirement}; got ${show(v.value)}`;
}

/** The mode's own type rule: floor/ceiling on numbers, superset on lists. */
function typeRule(mode: EnforcementMode, value: unknown): string {
  if ((mode === 'floor' || mode === 'ceiling') && typeof value !== 'number') return 'applies to numbers only';
  if (mode === 'superset' && !Array.isArray(value)) return 'applies to lists only';
  return '';
}

/** A policy's own detection: each mode must fit the type of its value. */
export function typeViolations(detection: Detection | undefined): Violation[] {
  const out: Violation[] = [];
  for (const [claim, settings] of Object.entries(detection ?? {})) {
    for (const [key, o] of Object.entries(settings)) {
      const mode = o.enforcement ?? 'unlocked';
      const rule = typeRule(mode, o.value);
      if (!rule) continue;
      const v = { field: `detection.${claim}.${key}`, mode, constraint: o.value, value: o.value, setBy: '' };
      out.push({ ...v, message: message(v, rule) });
    }
  }
  return out;
}

/** One parent's locked setting against the child's override, or undefined when it holds. */
function parentViolation(
  parent: PolicyRecord,
  field: string,
  locked: Override,
  mine: Override | undefined,
): Violation | undefined {
  const mode = locked.enforcement ?? 'unlocked';
  if (mode === 'unlocked' || mine === undefined) return undefined;
  const requirement = breach(mode, locked.value, mine.value);
  if (!requirement) return undefined;
  const v = { field, mode, constraint: locked.value, value: mine.value, setBy: parent.id };
  return { ...v, message: message(v, requirement) };
}

/** Overrides in `detection` that break a mode set by one of `parents` (org before workspace). */
export function parentViolations(detection: Detection | undefined, parents: PolicyRecord[]): Violation[] {
  return parents.flatMap((parent) =>
    Object.entries(parent.spec.detection ?? {}).flatMap(([claim, settings]) =>
      Object.entries(settings).flatMap(([key, locked]) => {
        const v = parentViolation(parent, `detection.${claim}.${key}`, locked, detection?.[claim]?.[key]);
        return v ? [v] : [];
      }),
    ),
  );
}

/** Every violation of saving `detection` below `parents`. */
export function enforcementViolations(
  detection: Detection | undefined,
  parents: PolicyRecord[],
): Violation[] {
  return [...typeViolations(detection), ...parentViolations(detection, parents)];
}

/** The 422 `detail`: the first violation's message, with a count when there are more. */
export function violationDetail(violations: Violation[]): string {
  if (violations.length === 0) return '';
  const more =
    violations.length > 1
      ? ` (and ${violations.length - 1} more: ${violations
          .slice(1)
          .map((v) => v.field)
          .join(', ')})`
      : '';
  return `${violations[0]!.message}${more}`;
}
