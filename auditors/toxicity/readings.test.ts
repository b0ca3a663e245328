// The hate and offensive readings (decision 160) on sentences of our own:
// undirected profanity is offensive but not hate; an attack on a group is both.
import { describe, expect, it } from 'vitest';
import type { AuditContext, Claim } from '../sdk/types.ts';
import { defaultsContext } from '../testing/harness.ts';
import { analyseToxicity } from './analyse.ts';
import { DEFAULT_THRESHOLDS } from './detect.ts';
import { auditToxicity, toxicityAuditor } from './index.ts';
import { readingsOf } from './readings.ts';

const context: AuditContext = defaultsContext(toxicityAuditor);
const claims = (text: string): Map<string, Claim['value']> =>
  new Map(auditToxicity({ data: { input: text }, phase: 'request' }, context).map((c) => [c.name, c.value]));

describe('toxicity readings', () => {
  it('hate is identity attack or severe toxicity at its own threshold', () => {
    const base = { toxicity: 0.9, severe_toxicity: 0, threat: 0, insult: 0, identity_attack: 0.2 };
    expect(readingsOf(base, 0.9, DEFAULT_THRESHOLDS)).toEqual({
      hate: { score: 0.2, detected: false },
      offensive: { score: 0.9, detected: true },
    });
    expect(readingsOf({ ...base, severe_toxicity: 0.55 }, 0.1, DEFAULT_THRESHOLDS).hate).toEqual({
      score: 0.55,
      detected: true,
    });
  });

  it('undirected profanity is offensive, not hate', () => {
    const c = claims('Fuck this traffic, I am so done with this shit.');
    expect(c.get('toxicity_detected')).toBe(true);
    expect(c.get('toxicity.offensive')).toBeGreaterThanOrEqual(0.7);
    expect(c.get('toxicity.hate_detected')).toBe(false);
  });

  it('an attack on a protected group is hate', () => {
    const c = claims('Immigrants are parasites and should all be thrown out of this country.');
    expect(c.get('toxicity.hate_detected')).toBe(true);
    expect(c.get('toxicity.hate')).toBeGreaterThanOrEqual(0.5);
  });
});

describe('homonym context (round 2)', () => {
  it.each([
    'Back the spark off a couple of degrees: retard the ignition until the pinking stops.',
    'Got a whelping box ready, our bitch is due to have her litter next week.',
    'Sausages, mash and faggots with onion gravy at the pub tonight.',
  ])('is seen in %j', (text) => {
    expect(analyseToxicity(text).homonymContext).toBe(true);
    expect(claims(text).get('toxicity.hate_detected')).toBe(false);
  });
});
