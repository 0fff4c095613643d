import { beforeAll, describe, expect, it } from 'vitest';
import { sentenceSpans } from '../../server/modules/book/index.ts';
import { loadQuestions } from '../../server/eval/evaluate.ts';
import { loadMarkPairs, markAgreement, type MarkPair } from '../../server/eval/marked-sentences.ts';
import type { RetrievalEngine } from '../../server/modules/search/retrieval-engine.ts';
import { corpusEngine } from './engine-helpers.ts';

const README_EXAMPLE = 'How can I stop worrying about what other people think of me?';

describe('the sentences a reader would mark (server/eval/marked-sentences.json)', () => {
  let engine: RetrievalEngine;
  let pairs: MarkPair[];
  beforeAll(async () => {
    engine = await corpusEngine();
    const data = await loadMarkPairs();
    expect(data.part).toBe('dev');
    pairs = data.pairs;
  }, 120_000);

  it('holds 101 pairs of dev questions (and the README’s example), each sentence one of its passage’s', async () => {
    const dev = new Set((await loadQuestions()).filter((q) => q.part === 'dev').map((q) => q.query));
    expect(pairs.length).toBe(101);
    expect(pairs.filter((p) => p.set === 'held out').length).toBe(50);
    for (const pair of pairs) {
      expect(pair.style === 'readme' ? pair.query === README_EXAMPLE : dev.has(pair.query), pair.query).toBe(true);
      const passage = engine.corpus.passages.find((p) => p.id === pair.passage);
      expect(passage, pair.passage).toBeDefined();
      const sentences = sentenceSpans(passage!.text).map(([start, end]) => passage!.text.slice(start, end));
      for (const sentence of [pair.sentence, ...pair.also]) expect(sentences, pair.query).toContain(sentence);
      expect(pair.also).not.toContain(pair.sentence);
    }
  });

  it('is marked as a reader would mark it on 58 of 101 pairs for LSA and 58 for SIF (cosine alone: 57 and 59)', async () => {
    const agreed: Record<string, number> = {};
    for (const model of ['lsa-96', 'sif-150']) {
      const result = await markAgreement((query) => engine.search(query, 10, model), pairs);
      expect(result.found).toBe(pairs.length);
      agreed[model] = result.same;
    }
    // 59 and 63 before the gloss lines of the afternoon of 2026-11-28 (docs/search-quality.md);
    // 62 and 59 before the fifth blind part's questions joined the asked ones (their lines move
    // the gloss line closest to a question, which steers the mark), 62 and 58 after.
    expect(agreed['lsa-96']).toBeGreaterThanOrEqual(58);
    expect(agreed['sif-150']).toBeGreaterThanOrEqual(58);
  }, 120_000);
});
