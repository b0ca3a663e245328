import { describe, expect, it } from 'vitest';
import { BUILTIN_AUDITOR_TABLE } from '../builtin.ts';
import { BUILTIN_AUDITORS } from '../registry.ts';
import { definitionProblems } from '../sdk/definition.ts';
import { settingValueMatches } from '../sdk/setting-names.ts';
import { AUDITOR_CATEGORIES, CATALOG_PHASES, CLAIM_TYPES, type AuditorDefinition } from '../sdk/types.ts';
import { BUILTIN_CATALOG_ENTRIES } from './index.ts';

describe('built-in auditor catalog', () => {
  it('has an entry for injection (8090), toxicity (8093) and both system auditors', () => {
    const catalog = BUILTIN_CATALOG_ENTRIES;
    const ports = Object.fromEntries(catalog.map((e) => [e.id, e.defaultPort]));
    expect(ports).toMatchObject({ injection: 8090, toxicity: 8093 });
    expect(Object.keys(ports)).toEqual(expect.arrayContaining(['model-context', 'llm-judge']));
    for (const port of Object.values(ports)) expect(port >= 8090 && port <= 8098).toBe(true);
    expect(new Set(Object.values(ports)).size).toBe(catalog.length);
  });

  it('fills every field the spec lists, with legal enum values', () => {
    for (const e of BUILTIN_CATALOG_ENTRIES) {
      expect(e.name && e.description && e.icon && e.color, e.id).toBeTruthy();
      expect(AUDITOR_CATEGORIES).toContain(e.category);
      expect(CATALOG_PHASES).toContain(e.phase);
      expect(Array.isArray(e.envVariables) && Array.isArray(e.policyOptions)).toBe(true);
      expect(e.defaultPolicy).toHaveProperty('enforcementMode');
      for (const c of e.claims) {
        expect(CLAIM_TYPES, `${e.id}/${c.name}`).toContain(c.type);
        for (const s of c.settings) {
          expect(s.label, `${e.id}/${c.name}/${s.key}`).toBeTruthy();
          expect(settingValueMatches(s.type, s.default)).toBe(true);
        }
      }
    }
  });

  it('lists the required standard variables in every entry', () => {
    for (const e of BUILTIN_CATALOG_ENTRIES) {
      expect(e.envVariables.filter((v) => v.required).map((v) => v.name)).toEqual([
        'PLATFORM_GATEWAY_URL',
        'TEE_PROVIDER',
      ]);
    }
  });

  it('lists the spec defaults of the injection and toxicity settings', () => {
    const settings = (id: string) =>
      Object.fromEntries(
        (BUILTIN_CATALOG_ENTRIES.find((e) => e.id === id)?.claims ?? []).flatMap((c) =>
          c.settings.map((s) => [s.key, s.default]),
        ),
      );
    expect(settings('injection')).toMatchObject({
      threshold: 0.8,
      block_on_detection: true,
      max_token_limit: 4096,
      toxicity_threshold: 0.7,
    });
    expect(settings('toxicity')).toMatchObject({
      threshold: 0.7,
      severe_threshold: 0.5,
      threat_threshold: 0.6,
      insult_threshold: 0.7,
      identity_attack_threshold: 0.5,
      replacement_message: 'Content filtered for safety',
    });
  });

  it.each(BUILTIN_AUDITOR_TABLE.map((a) => a.id))('has the facts the definition of %s serves', async (id) => {
    const row = BUILTIN_AUDITOR_TABLE.find((a) => a.id === id)!;
    const def = await row.load();
    expect([def.id, def.catalog.id, def.defaultPort]).toEqual([id, id, row.catalog.defaultPort]);
    expect(def.catalog).toEqual(row.catalog);
    expect(def.vocabulary).toEqual(row.vocabulary);
    expect(def.configuration ?? {}).toEqual(row.configuration);
  });

  it.each(Object.keys(BUILTIN_AUDITORS))(
    'matches the vocabulary of the registered auditor %s',
    async (id) => {
      const def = await (BUILTIN_AUDITORS[id] as () => Promise<AuditorDefinition>)();
      expect(definitionProblems(def)).toEqual([]);
      expect(def.catalog.claims.map((c) => [c.name, c.type])).toEqual(
        def.vocabulary.map((v) => [v.name, v.type]),
      );
      for (const v of def.vocabulary) {
        const claim = def.catalog.claims.find((c) => c.name === v.name);
        expect(claim?.settings.map((s) => [s.key, s.type, s.default])).toEqual(
          (v.settings ?? []).map((s) => [s.key, s.type, s.default]),
        );
      }
    },
  );
});
