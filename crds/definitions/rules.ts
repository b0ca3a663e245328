// The definition-file checks the OpenAPI schema cannot express, as a table of
// small rules. Each returns every error it finds; none stops the others.
import { CAMEL_KEY_RE, snakeToCamel } from '../../auditors/sdk/setting-names.ts';
import { DEFINITION_KINDS } from './convert.ts';
import type { DefinitionError } from './errors.ts';
import { errorAt, type Path, type SourceDocument } from './source.ts';
import { API_VERSION } from '../../contract/kube.ts';

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LEGACY_FIELDS = ['policyRef', 'policies'];
const CASCADE_HINT =
  'was replaced by the auditorSettings cascade (org → workspace → agent, agent wins): set spec.defaults.auditorSettings.<auditor_id>.<setting> or spec.agents[].auditorSettings instead';

export interface RuleContext {
  knownAuditors: ReadonlySet<string>;
}

type Obj = Record<string, unknown>;
type Rule = (src: SourceDocument, file: Obj, ctx: RuleContext) => DefinitionError[];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const spec = (file: Obj): Obj => (isObj(file.spec) ? file.spec : {});
const agents = (file: Obj): unknown[] =>
  Array.isArray(spec(file).agents) ? (spec(file).agents as unknown[]) : [];

const apiVersionRule: Rule = (src, file) =>
  file.apiVersion === API_VERSION
    ? []
    : [errorAt(src, ['apiVersion'], 'unknown apiVersion', { expected: API_VERSION, found: file.apiVersion })];

const kindRule: Rule = (src, file) =>
  (DEFINITION_KINDS as readonly unknown[]).includes(file.kind)
    ? []
    : [
        errorAt(src, ['kind'], 'wrong kind for a definition file', {
          expected: `one of ${DEFINITION_KINDS.join(', ')}`,
          found: file.kind,
        }),
      ];

const nameRule: Rule = (src, file) => {
  const name = isObj(file.metadata) ? file.metadata.name : undefined;
  if (typeof name === 'string' && NAME_RE.test(name) && name.length <= 253) return [];
  return [
    errorAt(src, ['metadata', 'name'], name === undefined ? 'metadata.name is required' : 'invalid name', {
      expected: 'a lower-case DNS name (a-z, 0-9, -, .)',
      found: name,
    }),
  ];
};

const legacyRule: Rule = (src, file) => {
  const places: [Obj, Path][] = [
    [file, []],
    [spec(file), ['spec']],
  ];
  if (isObj(spec(file).defaults)) places.push([spec(file).defaults as Obj, ['spec', 'defaults']]);
  agents(file).forEach((a, i) => isObj(a) && places.push([a, ['spec', 'agents', i]]));
  return places.flatMap(([obj, at]) =>
    LEGACY_FIELDS.filter((f) => f in obj).map((f) =>
      errorAt(src, [...at, f], `\`${f}\` ${CASCADE_HINT}`, { atKey: true }),
    ),
  );
};

const placementRule: Rule = (src, file) =>
  (['abilities', 'environment'] as const)
    .filter((s) => s in file && s in spec(file))
    .map((s) =>
      errorAt(src, [s], `\`${s}\` is given both at the top level and under spec`, {
        expected: 'one place',
        atKey: true,
      }),
    );

function routingRules(file: Obj): [Obj, Path][] {
  const out: [Obj, Path][] = [];
  const envs: [unknown, Path][] = [
    [file.environment, ['environment']],
    [spec(file).environment, ['spec', 'environment']],
    ...agents(file).map((a, i): [unknown, Path] => [
      isObj(a) ? a.environment : undefined,
      ['spec', 'agents', i, 'environment'],
    ]),
  ];
  for (const [env, at] of envs) {
    if (!isObj(env)) continue;
    const lists: [unknown, Path][] = [[env.credentialRouting, [...at, 'credentialRouting']]];
    if (Array.isArray(env.tools)) {
      env.tools.forEach(
        (t, i) => isObj(t) && lists.push([t.credentialRouting, [...at, 'tools', i, 'credentialRouting']]),
      );
    }
    for (const [list, lat] of lists) {
      if (Array.isArray(list)) list.forEach((r, i) => isObj(r) && out.push([r, [...lat, i]]));
    }
  }
  return out;
}

const injectionSpellingRule: Rule = (src, file) =>
  routingRules(file)
    .filter(
      ([r]) => 'injection_method' in r && 'injectionMethod' in r && r.injection_method !== r.injectionMethod,
    )
    .map(([r, at]) =>
      errorAt(src, [...at, 'injection_method'], 'injectionMethod and injection_method disagree', {
        expected: 'one spelling, or both equal',
        found: `${String(r.injectionMethod)} and ${String(r.injection_method)}`,
      }),
    );

const wildcardRule: Rule = (src, file) =>
  routingRules(file)
    .filter(([r]) => typeof r.destination === 'string' && r.destination.includes('*'))
    .filter(([r]) => !/^\*\.[^*]+$/.test(r.destination as string))
    .map(([r, at]) =>
      errorAt(src, [...at, 'destination'], 'a wildcard is allowed only as the whole leading label', {
        expected: 'a host like *.example.com',
        found: r.destination,
      }),
    );

const duplicateAgentRule: Rule = (src, file) => {
  const seen = new Map<unknown, number>();
  const errors: DefinitionError[] = [];
  agents(file).forEach((a, i) => {
    const name = isObj(a) ? a.name : undefined;
    if (name === undefined) return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, i);
    else {
      errors.push(
        errorAt(src, ['spec', 'agents', i, 'name'], `duplicate agent name (first at spec.agents[${first}])`, {
          expected: 'a unique name',
          found: name,
        }),
      );
    }
  });
  return errors;
};

function settingsBlocks(file: Obj): [Obj, Path][] {
  const out: [Obj, Path][] = [];
  const defaults = spec(file).defaults;
  if (isObj(defaults) && isObj(defaults.auditorSettings)) {
    out.push([defaults.auditorSettings, ['spec', 'defaults', 'auditorSettings']]);
  }
  if (isObj(spec(file).auditorSettings))
    out.push([spec(file).auditorSettings as Obj, ['spec', 'auditorSettings']]);
  agents(file).forEach((a, i) => {
    if (isObj(a) && isObj(a.auditorSettings))
      out.push([a.auditorSettings, ['spec', 'agents', i, 'auditorSettings']]);
  });
  return out;
}

const auditorSettingsRule: Rule = (src, file, ctx) => {
  const known = [...ctx.knownAuditors].sort().join(', ');
  const errors: DefinitionError[] = [];
  for (const [block, at] of settingsBlocks(file)) {
    for (const [auditor, settings] of Object.entries(block)) {
      if (!ctx.knownAuditors.has(auditor)) {
        errors.push(
          errorAt(src, [...at, auditor], 'settings for an auditor that does not exist', {
            expected: `one of ${known}`,
            found: auditor,
            atKey: true,
          }),
        );
      }
      if (!isObj(settings)) continue;
      for (const name of Object.keys(settings).filter((n) => !CAMEL_KEY_RE.test(n))) {
        errors.push(
          errorAt(src, [...at, auditor, name], 'setting names are camelCase in definition files', {
            expected: snakeToCamel(name),
            found: name,
            atKey: true,
          }),
        );
      }
    }
  }
  return errors;
};

const chainRule: Rule = (src, file, ctx) => {
  const chainOf = (o: unknown): unknown => (isObj(o) ? o.auditorChain : undefined);
  const chains: [unknown, Path][] = [
    [chainOf(spec(file).defaults), ['spec', 'defaults', 'auditorChain']],
    [chainOf(spec(file)), ['spec', 'auditorChain']],
  ];
  const errors: DefinitionError[] = [];
  for (const [chain, at] of chains) {
    if (!isObj(chain)) continue;
    for (const phase of ['preRequest', 'postResponse']) {
      const list = chain[phase];
      if (!Array.isArray(list)) continue;
      list.forEach((entry, i) => {
        const auditorId = isObj(entry) ? entry.auditorId : undefined;
        if (typeof auditorId === 'string' && !ctx.knownAuditors.has(auditorId)) {
          errors.push(
            errorAt(src, [...at, phase, i, 'auditorId'], 'auditor does not exist', {
              expected: `one of ${[...ctx.knownAuditors].sort().join(', ')}`,
              found: auditorId,
            }),
          );
        }
      });
    }
  }
  return errors;
};

export const RULES: readonly Rule[] = [
  apiVersionRule,
  kindRule,
  nameRule,
  legacyRule,
  placementRule,
  injectionSpellingRule,
  wildcardRule,
  duplicateAgentRule,
  auditorSettingsRule,
  chainRule,
];

export function runRules(src: SourceDocument, ctx: RuleContext): DefinitionError[] {
  if (!isObj(src.value)) {
    return [
      errorAt(src, [], 'a definition file is a YAML mapping', { expected: 'a mapping', found: src.value }),
    ];
  }
  const file = src.value;
  return RULES.flatMap((rule) => rule(src, file, ctx));
}
