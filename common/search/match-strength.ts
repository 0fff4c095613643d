/**
 * How well the book answers a question, from one model's ranked similarities: how far its first
 * passage stands above the next nine (the mean of ranks 2–10), in units of that model's own scale
 * (`stands`), or how close the first passage is to the question at all, in units of a closeness
 * that is an answer whatever stands beside it (`close`): the larger of the two. Below 1 the first
 * passage neither stands out from the rest nor comes close. (A question the whole book is about,
 * "What is true happiness?", finds many passages alike, but close: it is answered.)
 *
 * The scales, and `SAME_PASSAGE`, were chosen on the dev part only (npm run eval -- --part dev
 * prints the notice's rates; docs/search-quality.md): the most questions whose first three
 * passages all miss flagged while at most 8% of those whose first passage is right are, and none
 * of the example questions the app offers. A model with no scale here (the keyword arm, a neural
 * model) gives no strength, and the notice weighs the other arm alone. On dev (782 questions), each
 * beside the other: LSA 59% of misses and 4.0% of right first passages flagged, SIF 57% and 7.5%;
 * the README's example (right first for both) stands at 1.04. How these came to be, round by
 * round, and what the glosses cost the notice: docs/search-quality.md.
 */
export const MATCH_SCALE: Readonly<Record<string, { stands: number; close: number }>> = {
  'lsa-96': { stands: 0.144, close: 0.47 },
  'sif-150': { stands: 0.165, close: 0.47 },
};

/**
 * What two models choosing the same first passage adds to their mean strength: two different
 * readings of the question meeting on one passage is itself a sign that the book answers it
 * (on dev, the first passage is right for 82% of the questions where they meet, 29–33% where not).
 */
export const SAME_PASSAGE = 0.3;

/** How many ranks the strength looks at: the first passage and the nine after it. */
export const STRENGTH_DEPTH = 10;

/** The strength of a model's best match, from its similarities best first; undefined where the model has no scale. */
export function matchStrength(model: string, similarities: readonly number[]): number | undefined {
  const scale = MATCH_SCALE[model];
  if (scale === undefined) return undefined;
  const first = similarities[0] ?? 0;
  let rest = 0;
  for (let i = 1; i < STRENGTH_DEPTH; i++) rest += similarities[i] ?? 0;
  const strength = Math.max((first - rest / (STRENGTH_DEPTH - 1)) / scale.stands, first / scale.close);
  return Math.round(strength * 1000) / 1000;
}

/**
 * The bar one arm's strength must reach when it is the only arm shown with one (beside the
 * keyword arm, say): it has no other to meet, so it is held to a lower bar than two arms' mean.
 * The arena draws an arm beside the keyword arm in two pairs of three, so the rule holds here too:
 * no example question the app offers flagged (the README's, "How can I stop worrying about what
 * other people think of me?", has 0.70 from LSA alone). On dev (782 questions), alone, LSA then
 * flags 32% of its misses and 3% of its right first passages, SIF 22% and 0.5%.
 */
export const ONE_ARM_BAR = 0.68;

/**
 * Whether a search's results should say the book says little about the question: the mean
 * strength of the arms shown (those that have one), with `SAME_PASSAGE` added when the arms show
 * the same first passage, is below 1 (one arm alone: below `ONE_ARM_BAR`). No strength at all:
 * no notice.
 */
export function saysLittle(strengths: ReadonlyArray<number | undefined>, samePassage = false): boolean {
  const known = strengths.filter((s): s is number => s !== undefined);
  if (known.length === 0) return false;
  if (known.length === 1) return known[0]! < ONE_ARM_BAR;
  const mean = known.reduce((sum, s) => sum + s, 0) / known.length;
  return mean + (samePassage ? SAME_PASSAGE : 0) < 1;
}
