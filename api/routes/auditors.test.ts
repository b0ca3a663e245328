import { describe, expect, it } from 'vitest';
import { BUILTIN_AUDITORS } from '../../auditors/registry.ts';
import type { AuditorRegistration } from '../../crds/generated/types.ts';
import { AUDITOR_ROUTES } from './auditors.ts';
import type { RouteCtx } from './route.ts';

interface ListedAuditor {
  auditor_id: string;
  builtin: boolean;
  claims: { name: string; type: string }[];
}

/** What `GET /v1/auditors` answers with no AuditorRegistrations in the cluster. */
async function servedList(): Promise<ListedAuditor[]> {
  const route = AUDITOR_ROUTES.find((r) => r.method === 'GET' && r.path === '/v1/auditors')!;
  const rc = {
    deps: { auditors: { list: (): AuditorRegistration[] => [] } },
    audit: { resource: '' },
  } as unknown as RouteCtx;
  return ((await route.handle(rc)) as { items: ListedAuditor[] }).items;
}

describe('GET /v1/auditors for the built-in auditors', () => {
  it('lists every registered built-in auditor', async () => {
    const served = (await servedList()).filter((a) => a.builtin).map((a) => a.auditor_id);
    expect(served.sort()).toEqual(Object.keys(BUILTIN_AUDITORS).sort());
  });

  it.each(Object.keys(BUILTIN_AUDITORS))(
    'serves the claims %s declares in its own vocabulary',
    async (id) => {
      const def = await BUILTIN_AUDITORS[id]!();
      const served = (await servedList()).find((a) => a.auditor_id === id);
      expect(served?.claims).toEqual(def.vocabulary.map((v) => ({ name: v.name, type: v.type })));
    },
  );
});
