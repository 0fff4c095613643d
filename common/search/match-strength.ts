/**
 * How well the book answers a question, from one model's ranked similarities: how far its first
 * passage stands above the next nine (the mean of ranks 2–10), in units of that model's own scale
 * (`stands`), or how close the first passage is to the question at all, in units of a closeness
 * that is an answer whatever stands beside it (`close`): the larger of the two. Below 1 the first
 * passage neither stands out from the rest nor comes close, which on the dev questions meant the
 * book says little about the question: the results then say so, and still show the passages. (A
 * question the whole book is about, "What is true happiness?", finds many passages alike, but
 * close: it is answered.)
 *
 * The scales were chosen on the dev part only (npm run eval -- --part dev prints the notice's
 * rates; docs/search-quality.md): the most questions whose first three passages all miss flagged
 * while at most 8% of those whose first passage is right are. A model with no scale here (the
 * keyword arm, a neural model) gives no strength, and the notice weighs the other arm alone.
 */
export const MATCH_SCALE: Readonly<Record<string, { stands: number; close: number }>> = {
  'lsa-96': { stands: 0.092, close: 0.45 },
  'sif-150': { stands: 0.115, close: 0.5 },
};

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
 * Whether a search's results should say the book says little about the question: the mean
 * strength of the arms shown (those that have one) is below 1. No strength at all: no notice.
 */
export function saysLittle(strengths: ReadonlyArray<number | undefined>): boolean {
  const known = strengths.filter((s): s is number => s !== undefined);
  if (known.length === 0) return false;
  return known.reduce((sum, s) => sum + s, 0) / known.length < 1;
}
