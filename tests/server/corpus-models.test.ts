import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../server/modules/book/load-corpus.ts';
import { corpusLineup } from '../../server/modules/search/models/lineup.ts';
import type { EmbeddingModel } from '../../common/search/types.ts';
import { CORPUS_FILE, sharedWordVectors } from './engine-helpers.ts';

const norm = (v: Float32Array) => Math.hypot(...v);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

const lineup = corpusLineup({ words: await sharedWordVectors() });

describe.each(lineup.map((r) => [r.id, r] as const))('weight-free model %s', (_id, recipe) => {
  let texts: string[];
  let ids: string[];
  let model: EmbeddingModel;
  let vectors: Float32Array[];

  beforeAll(async () => {
    const corpus = await loadCorpus(CORPUS_FILE);
    texts = corpus.passages.map((p) => p.text);
    ids = corpus.passages.map((p) => p.id);
    model = recipe.restore(recipe.fit(texts));
    vectors = await model.embedPassages(texts);
  });

  it('is named honestly: no BGE or UAE marker', () => {
    expect(`${model.family} ${model.name}`).not.toMatch(/BGE|UAE/);
  });

  it('gives dense unit vectors of its dimension for passages and queries', async () => {
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v.length).toBe(model.dim);
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(v.filter((x) => x !== 0).length).toBeGreaterThan(model.dim * 0.9);
    }
    expect(norm(await model.embedQuery('the love of God'))).toBeCloseTo(1, 5);
  });

  it('fits the same model every time', async () => {
    const again = recipe.restore(recipe.fit(texts));
    expect(Array.from(await again.embedQuery('patience'))).toEqual(Array.from(await model.embedQuery('patience')));
  });

  it('restores from its saved state to the same vectors', async () => {
    const state = recipe.fit(texts);
    const copy = recipe.restore({
      meta: JSON.parse(JSON.stringify(state.meta)) as Record<string, unknown>,
      arrays: Object.fromEntries(Object.entries(state.arrays).map(([k, a]) => [k, Float32Array.from(a)])),
    });
    // "Afterlife" counts through the thesaurus, which the saved state carries.
    const query = 'the heart as a mirror in the afterlife';
    expect(Array.from(await copy.embedQuery(query))).toEqual(Array.from(await model.embedQuery(query)));
  });

  it('ranks the passage a reader means among its first three', async () => {
    const q = await model.embedQuery('the scavenger who fainted among the perfume-sellers');
    const top = vectors.map((v, i) => [dot(v, q), i] as const).sort((a, b) => b[0] - a[0]).slice(0, 3);
    const scavenger = texts.findIndex((t) => t.includes('A certain scavenger went into the perfume-sellers'));
    expect(top.map(([, i]) => i)).toContain(scavenger);
  });

  it("reads a reader's word of today as the book's words for it (the reader's thesaurus)", async () => {
    // The book never says "mindfulness" (its stem, mind, it does), nor does WordNet lead from it
    // to the book's recollection, contemplation and remembrance: the thesaurus does.
    const q = await model.embedQuery('How do I practise mindfulness?');
    const best = vectors.map((v, i) => [dot(v, q), i] as const).sort((a, b) => b[0] - a[0])[0]!;
    expect(ids[best[1]]).toBe('ch6-10');
  });

  it('gives a query of unknown words a zero vector rather than noise', async () => {
    const v = await model.embedQuery('xylophone quasar');
    expect(norm(v)).toBe(0);
  });
});
