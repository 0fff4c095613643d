import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askedFile, askedFor, foldForMatch, loadAsked, type AskedFile } from '../../server/modules/book/asked.ts';
import { textHash } from '../../server/modules/book/glosses.ts';
import { CorpusError, loadCorpus } from '../../server/modules/book/load-corpus.ts';
import { foldOf } from '../../server/eval/asked.ts';
import type { EvalQuestion } from '../../server/eval/metrics.ts';
import { CORPUS_FILE } from './engine-helpers.ts';

const paragraphs = new Map([
  ['ch1#p1', 'Knowledge of self is the key. The heart is a mirror that rust can dull.'],
  ['ch1#p2', 'The body is its kingdom.'],
]);
const textOf = (anchor: string) => paragraphs.get(anchor);
// A long paragraph split between two passages, as the chunking splits one at a sentence's end.
const passages = [
  { text: 'Knowledge of self is the key.', paragraphs: [{ anchor: 'ch1#p1' }] },
  { text: 'The heart is a mirror that rust can dull. The body is its kingdom.', paragraphs: [{ anchor: 'ch1#p1' }, { anchor: 'ch1#p2' }] },
];
const asked = (text: string, entries: Array<[string, string]>): AskedFile => ({
  about: 'test',
  paragraphs: { 'ch1#p1': { text_sha256: textHash(text), asked: entries.map(([question, quote]) => ({ question, quote })) } },
});

describe('the questions readers asked', () => {
  it('join the gloss of the one passage that holds their quote, and only for the text they were asked of', () => {
    const file = asked(paragraphs.get('ch1#p1')!, [
      ['Why does my mind feel foggy?', 'a mirror that  RUST can dull'],
      ['Where do I start?', 'Knowledge of self'],
    ]);
    expect(askedFor(passages, textOf, file)).toEqual(['Where do I start?', 'Why does my mind feel foggy?']);
    // The paragraph was proofread since: its questions attach nowhere until they are placed again.
    expect(askedFor(passages, textOf, asked('Knowledge of self is a key.', [['Where do I start?', 'Knowledge of self']]))).toEqual(['', '']);
    expect(askedFor(passages, textOf, undefined)).toEqual(['', '']);
  });

  it('are read from asked.json beside the book: none without one, a clear error for a broken one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'asked-'));
    const book = path.join(dir, 'book.md');
    await copyFile(CORPUS_FILE, book);
    expect(await loadAsked(askedFile(book))).toBeUndefined();
    await writeFile(askedFile(book), JSON.stringify({ about: 'x', paragraphs: { 'ch1#p1': { text_sha256: 'x', asked: [{ question: 'no quote' }] } } }));
    await expect(loadAsked(askedFile(book))).rejects.toThrow(/is not a file of questions asked/);
    await expect(loadCorpus(book)).rejects.toThrow(CorpusError);
  });

  it("ship with the book: every clean dev question once, in its gold passage's gloss, and never a test question", async () => {
    const shipped = JSON.parse(await readFile(askedFile(CORPUS_FILE), 'utf8')) as AskedFile;
    const { questions } = JSON.parse(await readFile(new URL('../../server/eval/questions.json', import.meta.url), 'utf8')) as { questions: EvalQuestion[] };
    const shippedQuestions = Object.values(shipped.paragraphs).flatMap((p) => p.asked.map((a) => foldForMatch(a.question)));
    const dev = questions.filter((q) => q.part === 'dev' && q.style !== 'typo').map((q) => foldForMatch(q.query));
    expect(new Set(shippedQuestions)).toEqual(new Set(dev));
    expect(shippedQuestions).toHaveLength(new Set(shippedQuestions).size);
    // The fresh test part is what the search has never seen: none of it, clean or typo'd, nor a twin.
    const test = new Set(questions.filter((q) => q.part === 'test').flatMap((q) => [q.query, q.twin ?? q.query]).map(foldForMatch));
    expect(shippedQuestions.filter((q) => test.has(q))).toEqual([]);
    const corpus = await loadCorpus(CORPUS_FILE);
    for (const q of questions.filter((q) => q.part === 'dev' && q.style !== 'typo').slice(0, 200)) {
      const holders = corpus.passages.filter((p) => (p.gloss ?? '').split('\n').includes(q.query.trim()));
      expect(holders.map((p) => foldForMatch(p.text).includes(foldForMatch(q.gold[0]!))), q.query).toEqual([true]);
    }
  });

  it("put a typo'd dev question in its clean twin's fold, so the eval never searches it with its twin indexed", () => {
    const twin = { query: 'How do I stop envying my friends?' };
    expect(foldOf({ query: 'How do I stpo envying my freinds?', twin: twin.query })).toBe(foldOf(twin));
    const folds = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((query) => foldOf({ query }));
    expect(new Set(folds)).toEqual(new Set([0, 1]));
  });
});
