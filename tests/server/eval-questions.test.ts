import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { chunkPassages } from '../../server/modules/book/chunk-passages.ts';
import { parseBook } from '../../server/modules/book/parse-book.ts';
import { CLEAN_STYLES, EVAL_STYLES, type EvalQuestion } from '../../server/eval/metrics.ts';
import { foldForMatch } from '../../server/modules/book/index.ts';
import { CORPUS_FILE } from './engine-helpers.ts';

const STYLES: string[] = EVAL_STYLES;
const CLEAN: string[] = CLEAN_STYLES;
const CHAPTERS = ['Preface', 'Introduction', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'];

describe('the evaluation question set', async () => {
  const { questions } = JSON.parse(await readFile(new URL('../../server/eval/questions.json', import.meta.url), 'utf8')) as {
    questions: EvalQuestion[];
  };
  const passages = chunkPassages(parseBook(await readFile(CORPUS_FILE, 'utf8'))).map((p) => foldForMatch(p.text));

  it('holds at least 120 questions, split into dev and test, in four styles over every chapter', () => {
    expect(questions.length).toBeGreaterThanOrEqual(120);
    for (const q of questions) {
      expect(['dev', 'test']).toContain(q.part);
      expect(STYLES).toContain(q.style);
      expect(CHAPTERS).toContain(q.chapter);
    }
    for (const chapter of CHAPTERS.slice(2)) {
      for (const style of CLEAN.filter((s) => s !== 'everyday')) expect(questions.some((q) => q.chapter === chapter && q.style === style), `${chapter} ${style}`).toBe(true);
    }
    expect(new Set(questions.map((q) => q.query.toLowerCase())).size).toBe(questions.length);
  });

  it("names a typo'd question's clean twin, and only a typo'd question's", () => {
    for (const q of questions) {
      if (q.style === 'typo') {
        expect(q.twin, q.query).toEqual(expect.any(String));
        expect(q.twin!.toLowerCase(), q.query).not.toBe(q.query.toLowerCase());
      } else {
        expect(q.twin, q.query).toBeUndefined();
      }
    }
  });

  it('has every gold quote inside a passage, never split across two', () => {
    for (const q of questions) {
      for (const quote of q.gold) {
        const holders = passages.filter((text) => text.includes(foldForMatch(quote)));
        expect(holders.length, `${q.query}: "${quote}"`).toBeGreaterThan(0);
      }
    }
  });
});

describe('the fresh test part', async () => {
  const { questions } = JSON.parse(await readFile(new URL('../../server/eval/questions.json', import.meta.url), 'utf8')) as {
    questions: EvalQuestion[];
  };
  const test = questions.filter((q) => q.part === 'test');
  const clean = test.filter((q) => q.style !== 'typo');

  it('has at least 150 blind questions over every chapter, half about readers’ lives in today’s words, a fifth paraphrases', () => {
    expect(test.length).toBeGreaterThanOrEqual(150);
    for (const chapter of CHAPTERS) expect(clean.some((q) => q.chapter === chapter), chapter).toBe(true);
    expect(test.filter((q) => q.style === 'everyday').length / test.length).toBeGreaterThanOrEqual(0.5);
    expect(test.filter((q) => q.style === 'paraphrase').length / test.length).toBeGreaterThanOrEqual(0.2);
  });

  it('pairs each typo’d question with its clean twin in the same part, with the same gold', () => {
    const typos = test.filter((q) => q.style === 'typo');
    expect(typos.length).toBeGreaterThanOrEqual(20);
    for (const q of typos) {
      const twin = clean.find((c) => c.query === q.twin);
      expect(twin, q.query).toBeDefined();
      expect(twin!.gold).toEqual(q.gold);
      expect(q.query).not.toBe(q.twin);
    }
  });
});

describe('the questions the book does not answer', async () => {
  const { questions } = JSON.parse(await readFile(new URL('../../server/eval/unanswered.json', import.meta.url), 'utf8')) as {
    questions: Array<{ part: string; kind: string; query: string }>;
  };
  const asked = JSON.parse(await readFile(new URL('../../server/eval/questions.json', import.meta.url), 'utf8')) as { questions: EvalQuestion[] };

  it('are split between dev and test in each kind, each asked once, and none repeats a question of the evaluation', () => {
    expect(questions.length).toBeGreaterThanOrEqual(100);
    const kinds = new Set(questions.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(['everyday-unanswered', 'facts', 'modern', 'near', 'other-texts', 'practical']);
    for (const kind of kinds) {
      for (const part of ['dev', 'test']) expect(questions.filter((q) => q.kind === kind && q.part === part).length, `${kind} ${part}`).toBeGreaterThanOrEqual(7);
    }
    const seen = new Set([...questions, ...asked.questions].map((q) => q.query.toLowerCase()));
    expect(seen.size).toBe(questions.length + asked.questions.length);
  });
});
