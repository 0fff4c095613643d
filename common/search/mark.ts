import type { SentenceScore } from './passage-index.ts';
import type { EmbeddingModel } from './types.ts';

/**
 * Which sentence of a passage a result marks: the one a reader would point to as the answer.
 * The model's cosine between the question and each sentence says which is closest in meaning,
 * but a sentence that merely shares a word, or one the model's topics blur with its neighbours,
 * can win it by a hair. Two more signs weigh beside it, each chosen on the dev pairs of
 * server/eval/marked-sentences.json:
 *
 * - the passage's gloss line closest to the question (a line in a reader's words of what the
 *   passage says): a sentence counts `MARK_GLOSS_WEIGHT` times its cosine with that line, so the
 *   sentence the gloss describes as the answer gains (passage-index.ts);
 * - the question's own words in the sentence, weighed as the model weighs them (the rarer in the
 *   book, the more) and counting the book's words the question stands for (WordNet relatives, the
 *   reader's thesaurus: a reader's "amusement" is the book's "entertainment"): the cosine of the
 *   two bags of terms, `MARK_TERMS_WEIGHT` of it.
 *
 * What ranks a passage is unchanged: only the mark is chosen so.
 */
export const MARK_GLOSS_WEIGHT: number = 0.5;
export const MARK_TERMS_WEIGHT: number = 0.5;

/** A sentence's terms as the mark reads them: ids and weights, the weights divided by their norm. */
interface SentenceBag {
  ids: Int32Array;
  weights: Float64Array;
}

/** Each model's sentences' terms, read once and kept (by passage and the sentence's start). */
const keptFor = new WeakMap<EmbeddingModel, Map<number, SentenceBag>>();

/**
 * A sentence's score for the mark from its score so far (its cosine, and the gloss's part) and
 * the question's words it holds; undefined for a model without terms of its own (the neural
 * models), whose mark is then its closest sentence.
 */
export function markScore(model: EmbeddingModel, question: string, passages: readonly { text: string }[]): SentenceScore | undefined {
  const terms = model.markTerms;
  if (!terms || MARK_TERMS_WEIGHT === 0) return undefined;
  const asked = terms.question(question);
  const askedNorm = norm(asked.values());
  if (askedNorm === 0) return undefined;
  let kept = keptFor.get(model);
  if (!kept) keptFor.set(model, (kept = new Map()));
  const sentences = kept;
  const scale = MARK_TERMS_WEIGHT / askedNorm;
  return (passage, start, end, score) => {
    const key = passage * 65536 + start;
    let own = sentences.get(key);
    if (!own) {
      const bag = terms.sentence(passages[passage]!.text.slice(start, end));
      const n = norm(bag.values()) || 1;
      own = { ids: Int32Array.from(bag.keys()), weights: Float64Array.from(bag.values(), (w) => w / n) };
      sentences.set(key, own);
    }
    // The question's weights looked up by term id (a sentence holds a dozen terms): an array by id
    // would be as long as the vocabulary, made anew for every question.
    let dot = 0;
    for (let i = 0; i < own.ids.length; i++) {
      const w = asked.get(own.ids[i]!);
      if (w !== undefined) dot += w * own.weights[i]!;
    }
    return score + scale * dot;
  };
}

function norm(weights: Iterable<number>): number {
  let sum = 0;
  for (const w of weights) sum += w * w;
  return Math.sqrt(sum);
}
