// Building the family split recorded in auditors/data-split.json.
import { fnv1a } from '../../auditors/text/hashing.ts';
import type { HateCheckRow, LabelledRow, SplitFile } from './data.ts';

export const TOXICITY_SEED = 'hatecheck-family-split-v1';
/** Share of HateCheck template families held out. */
export const TOXICITY_HELDOUT_PERCENT = 35;

/**
 * Injection: the corpus's own split (`exemplar_bank` vs `validation`) is
 * already by template family — every obfuscated variant of one template sits
 * on one side — so it is adopted as is: validation families are held out.
 */
export function injectionSplit(rows: LabelledRow[]): SplitFile['injection'] {
  const heldout = new Set(rows.filter((r) => r.upstreamSplit === 'validation').map((r) => r.group));
  const mixed = rows.filter((r) => heldout.has(r.group) && r.upstreamSplit !== 'validation');
  if (mixed.length > 0)
    throw new Error(`upstream split is not by family: ${mixed.map((r) => r.id).join(', ')}`);
  return {
    method:
      "template family = group_id without its obfuscation suffix; held out = families of the corpus's validation split",
    heldout_groups: [...heldout].sort(),
    train_ids: rows.filter((r) => !heldout.has(r.group)).map((r) => r.id),
    heldout_ids: rows.filter((r) => heldout.has(r.group)).map((r) => r.id),
  };
}

/** HateCheck: template families (joined through ref_templ_id) hashed with a fixed seed; ~35% held out. */
export function toxicitySplit(rows: HateCheckRow[]): SplitFile['toxicity'] {
  const heldout = new Set(
    rows.map((r) => r.group).filter((g) => fnv1a(`${TOXICITY_SEED}:${g}`) % 100 < TOXICITY_HELDOUT_PERCENT),
  );
  return {
    method: `template family = templ_id joined with ref_templ_id (union-find); family held out when fnv1a(seed:family) % 100 < ${TOXICITY_HELDOUT_PERCENT}`,
    seed: TOXICITY_SEED,
    heldout_groups: [...heldout].sort(),
    train_ids: rows.filter((r) => !heldout.has(r.group)).map((r) => r.id),
    heldout_ids: rows.filter((r) => heldout.has(r.group)).map((r) => r.id),
  };
}
