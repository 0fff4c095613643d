import { seededRandom } from '../../common/seeded-random.ts';
import type { EvalQuestion } from './metrics.ts';

/** A small, stable hash of a text (FNV-1a), to seed each question's slips. */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The query as a phone keyboard's everyday slip would leave it: two neighbouring letters swapped
 * in each of its two longest words (the first of equally long ones; a pair of two different
 * letters, chosen by a generator seeded from the query and `seed`, so the same query always gets
 * the same slips). Words of fewer than four letters are left alone.
 */
export function typoTwin(query: string, seed = 0): string {
  const words = [...query.matchAll(/[A-Za-z]{4,}/g)];
  const longest = words
    .map((match, order) => ({ at: match.index, word: match[0], order }))
    .sort((a, b) => b.word.length - a.word.length || a.order - b.order)
    .slice(0, 2);
  const random = seededRandom(hashText(query) ^ seed);
  const chars = query.split('');
  for (const { at, word } of longest) {
    const pairs: number[] = [];
    for (let i = 0; i + 1 < word.length; i++) if (word[i]!.toLowerCase() !== word[i + 1]!.toLowerCase()) pairs.push(i);
    if (pairs.length === 0) continue;
    const i = at + pairs[Math.floor(random() * pairs.length)]!;
    [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
  }
  return chars.join('');
}

/** A typo'd twin of each question (style typo, `twin` its clean query), for questions whose slips change them. */
export function typoTwins(questions: EvalQuestion[], seed = 0): EvalQuestion[] {
  return questions.flatMap((q) => {
    const query = typoTwin(q.query, seed);
    return query === q.query ? [] : [{ ...q, style: 'typo' as const, query, twin: q.query }];
  });
}

/**
 * The typo'd questions to set beside their twins: the part's own (style typo), or, where it has
 * none, a generated twin of each of its clean questions.
 */
export function typodQuestions(set: EvalQuestion[]): { typod: EvalQuestion[]; generated: boolean } {
  const own = set.filter((q) => q.style === 'typo');
  if (own.length > 0) return { typod: own, generated: false };
  return { typod: typoTwins(set), generated: true };
}
