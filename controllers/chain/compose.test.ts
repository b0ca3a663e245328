import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyExplicitChain, chainIds, composeChain, removeAuditors, unknownAuditors } from './compose.ts';

const input = {
  orgName: 'acme',
  orgRequired: ['pii', 'injection'],
  workspaceName: 'team',
  workspaceRequired: ['secrets'],
  frameworks: [{ name: 'hipaa', requiredAuditors: ['phi', 'pii'] }],
  userSelected: ['toxicity', 'injection'],
};

describe('composeChain', () => {
  it('puts system auditors first, then org, workspace, framework and user auditors, without duplicates', () => {
    expect(chainIds(composeChain(input))).toEqual([
      'model-context',
      'llm-judge',
      'pii',
      'injection',
      'secrets',
      'phi',
      'toxicity',
    ]);
  });

  it('records the first scope that brought each auditor', () => {
    const chain = composeChain(input);
    expect(chain.find((e) => e.auditorId === 'injection')).toEqual({
      auditorId: 'injection',
      scope: 'org',
      requiredBy: 'acme',
    });
    expect(chain.find((e) => e.auditorId === 'phi')).toMatchObject({
      scope: 'framework',
      requiredBy: 'hipaa',
    });
  });

  it('puts the built-in default auditors before the system auditors, as user selections', () => {
    const chain = composeChain({ builtinDefault: ['injection', 'toxicity'], userSelected: ['pii'] });
    expect(chainIds(chain)).toEqual(['injection', 'toxicity', 'model-context', 'llm-judge', 'pii']);
    expect(chain[0]).toEqual({ auditorId: 'injection', scope: 'user', requiredBy: '' });
  });

  it('always includes the system auditors, even with no input', () => {
    expect(chainIds(composeChain({}))).toEqual(['model-context', 'llm-judge']);
  });

  it('never subtracts: every auditor of every scope is in the chain, once, in first-seen order', () => {
    const ids = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'llm-judge', 'model-context'), { maxLength: 6 });
    fc.assert(
      fc.property(ids, ids, ids, ids, (org, ws, fw, user) => {
        const chain = chainIds(
          composeChain({
            orgRequired: org,
            workspaceRequired: ws,
            frameworks: [{ name: 'f', requiredAuditors: fw }],
            userSelected: user,
          }),
        );
        const all = ['model-context', 'llm-judge', ...org, ...ws, ...fw, ...user];
        expect(chain).toEqual([...new Set(all)]);
      }),
    );
  });
});

describe('removeAuditors', () => {
  it('removes a user-selected auditor', () => {
    const { chain, refused } = removeAuditors(composeChain(input), ['toxicity']);
    expect(chainIds(chain)).not.toContain('toxicity');
    expect(refused).toEqual([]);
  });

  it('refuses to remove required auditors and names the scope that requires each', () => {
    const { chain, refused } = removeAuditors(composeChain(input), ['llm-judge', 'pii', 'secrets', 'phi']);
    expect(chainIds(chain)).toEqual(chainIds(composeChain(input)));
    expect(refused).toEqual([
      'auditor llm-judge is a system auditor and cannot be removed',
      'auditor pii is required by organization acme and cannot be removed',
      'auditor secrets is required by workspace team and cannot be removed',
      'auditor phi is required by compliance framework hipaa and cannot be removed',
    ]);
  });

  it('refuses to remove a user-selected auditor that a higher scope also requires', () => {
    expect(removeAuditors(composeChain(input), ['injection']).refused).toEqual([
      'auditor injection is required by organization acme and cannot be removed',
    ]);
  });
});

describe('applyExplicitChain', () => {
  it('drops omitted user auditors, keeps omitted required ones with a refusal, appends system ones silently', () => {
    const { chain, refused } = applyExplicitChain(input, ['injection', 'custom']);
    expect(chainIds(chain)).toEqual([
      'model-context',
      'llm-judge',
      'pii',
      'injection',
      'secrets',
      'phi',
      'custom',
    ]);
    expect(refused).toEqual([
      'auditor pii is required by organization acme and cannot be removed',
      'auditor secrets is required by workspace team and cannot be removed',
      'auditor phi is required by compliance framework hipaa and cannot be removed',
    ]);
  });
});

describe('installed apps', () => {
  it('bring their auditors after the frameworks and before user choices; removing one is refused naming the app', () => {
    const withApp = { ...input, installedApps: [{ app: 'scanner-app', auditors: ['scanner', 'injection'] }] };
    const chain = composeChain(withApp);
    expect(chain.find((e) => e.auditorId === 'scanner')).toEqual({
      auditorId: 'scanner',
      scope: 'app',
      requiredBy: 'scanner-app',
    });
    expect(chain.find((e) => e.auditorId === 'injection')?.scope).toBe('org'); // first scope wins
    expect(removeAuditors(chain, ['scanner']).refused).toEqual([
      'auditor scanner is required by installed app scanner-app; uninstall the app to remove it',
    ]);
  });
});

describe('unknownAuditors', () => {
  it('lists auditors that are neither built in nor registered', () => {
    const known = new Set(['model-context', 'llm-judge', 'pii']);
    expect(unknownAuditors(composeChain({ orgRequired: ['pii', 'nope'] }), known)).toEqual(['nope']);
  });
});
