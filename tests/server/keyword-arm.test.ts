// Starts no server, store or engine: it does not wait for the run's fixtures.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { KeywordIndex } from '../../server/modules/search/models/keyword-arm.ts';

const TEXTS = [
  'The heart is like a mirror. Its rust is the love of the world.',
  'Patience is half of faith. The patient man waits on God.',
  'A king rules the body. The senses are his servants, and the mind his vizier.',
  'The love of God is the highest of the stations. Love follows knowledge.',
];

describe('the keyword arm', () => {
  const index = new KeywordIndex(TEXTS);

  it('ranks as MiniSearch’s BM25 with its default settings does', () => {
    const plain = new MiniSearch<{ id: number; text: string }>({ fields: ['text'] });
    plain.addAll(TEXTS.map((text, id) => ({ id, text })));
    for (const query of ['the love of God', 'mirror', 'king and servants', 'patient faith']) {
      expect(index.search(query, 4).map((hit) => hit.passage), query).toEqual(plain.search(query).slice(0, 4).map((hit) => hit.id));
    }
  });

  it('scores from 0 to 1, best first, as a share of what the query’s words could earn', () => {
    const hits = index.search('the love of God', 4);
    expect(hits.length).toBeGreaterThan(1);
    expect(hits[0]!.passage).toBe(3);
    for (const hit of hits) expect(hit.similarity > 0 && hit.similarity <= 1).toBe(true);
    expect([...hits].sort((a, b) => b.similarity - a.similarity)).toEqual(hits);
    // A word the book never uses adds nothing to the ceiling, nor to the score.
    expect(index.search('the love of God xylophone', 4)).toEqual(hits);
  });

  it('finds nothing for a question sharing no word with the book, and names no sentence for it', () => {
    expect(index.search('xylophone quasar', 3)).toEqual([]);
    expect(index.bestSentence(0, 'xylophone')).toBeUndefined();
  });

  it('marks the sentence holding the query’s rarest words', () => {
    const { start, end } = index.bestSentence(1, 'the patient man')!;
    expect(TEXTS[1]!.slice(start, end)).toBe('The patient man waits on God.');
    const mirror = index.bestSentence(0, 'the rust of the heart')!;
    // Each sentence holds one word of the question found nowhere else (heart, rust); the second holds "of" as well.
    expect(TEXTS[0]!.slice(mirror.start, mirror.end)).toBe('Its rust is the love of the world.');
  });

  it('counts the book’s distinct words as its dimension', () => {
    expect(new KeywordIndex(['a b a', 'b c']).vocabulary).toBe(3);
  });
});
