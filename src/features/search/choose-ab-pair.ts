import { resultText, type LabelledResult, type SearchResult } from '../../lib/search-result.ts';
import { agreementOf, NO_AGREEMENT, type Agreement } from '../../../common/search/match-strength.ts';

/** Which model gave a result, as far as the server says (`model`, else `model_type`). */
const modelOf = (result: SearchResult) => result.model ?? result.model_type;

/**
 * The first result, and the first after it from another model: the two models' first passages
 * when the list interleaves two models, as the server's does. A list naming no model gives its
 * first two; a list from one model alone gives its first result only, as two passages of one
 * model are no comparison.
 */
function firstOfTwoModels(results: SearchResult[]): SearchResult[] {
  const [first] = results;
  if (!first) return [];
  const model = modelOf(first);
  const second = results.slice(1).find((r) => model === undefined || modelOf(r) === undefined || modelOf(r) !== model);
  return second ? [first, second] : [first];
}

/**
 * The two results a reader compares: the first BGE result and the first UAE result (or, when
 * the list lacks one of them, the first results of two different models), in random order,
 * labelled A and B.
 */
export function chooseAbPair(results: SearchResult[], random: () => number = Math.random): LabelledResult[] {
  const bge = results.find((r) => r.model_type?.includes('BGE'));
  const uae = results.find((r) => r.model_type?.includes('UAE'));
  const pair = bge && uae ? [bge, uae] : firstOfTwoModels(results);
  if (pair.length === 2 && random() < 0.5) pair.reverse();
  return pair.map((result, i) => ({ ...result, resultLabel: i === 0 ? 'A' : 'B' }));
}

/**
 * Whether both models chose the same passage (the same passage id, or, from a server that sends
 * none, the same text): then there is one passage to rate, not two to compare.
 */
export function sharesOnePassage(pair: readonly SearchResult[]): boolean {
  if (pair.length !== 2) return false;
  const [a, b] = pair as [SearchResult, SearchResult];
  return a.id !== undefined && b.id !== undefined ? a.id === b.id : resultText(a).trim() === resultText(b).trim();
}

/**
 * How far the pair's two models agree, read from the whole list of results: each model's
 * passages in its own order (ids, or texts from a server that sends none). The notice that the
 * book says little weighs it; a pair of one model, or results naming no model, agree on nothing
 * beyond the same first passage.
 */
export function pairAgreement(results: readonly SearchResult[], pair: readonly SearchResult[]): Agreement {
  if (pair.length !== 2) return NO_AGREEMENT;
  const key = (result: SearchResult) => result.id ?? resultText(result).trim();
  const models = pair.map(modelOf);
  if (models[0] === undefined || models[1] === undefined || models[0] === models[1]) {
    const samePassage = sharesOnePassage(pair);
    return { samePassage, shared: samePassage ? 1 : 0 };
  }
  return agreementOf(models.map((model) => results.filter((result) => modelOf(result) === model).map(key)));
}
