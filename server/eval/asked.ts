import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Progress } from '../platform/util/progress.ts';
import { askedFile, foldForMatch, type AskedFile } from '../modules/book/index.ts';
import { startRetrieval, type RetrievalEngine, type RetrievalLog, type RetrievalSettings } from '../modules/search/index.ts';
import type { EvalQuestion } from './metrics.ts';

/**
 * The questions asked of the book (corpus/asked.json, server/modules/book/asked.ts) are the
 * evaluation's dev questions, each with its first gold quote, under the paragraph that holds it.
 * Only the dev part is ever read into them: the test part stays questions the search never saw.
 *
 * Dev figures are then measured across two folds: each dev question is searched by models fitted
 * without the asked questions of its own fold (`foldedEngine`), as a question nobody asked before.
 */
export const ASKED_ABOUT =
  "Questions asked of the book: the dev part of the evaluation (server/eval/questions.json), each written from reading the book alone by a writer (a helper session) who never saw the search's models or output, with the words of the book its writer pointed to as the answer (its first gold quote), under the paragraph that holds them. A question counts as a line of the gloss of the passage whose text holds its quote, so a reader's question finds the passage that answered others like it. Typo'd copies are left out, and the test part is never read into this file. Built by scripts/build-asked.ts; text_sha256 names the paragraph's text as a gloss's does.";

const isAsked = (q: EvalQuestion) => q.part === 'dev' && q.style !== 'typo';

/** The dev part's clean questions, each under the paragraph that holds its first gold quote (else its passage's first paragraph). */
export function askedParagraphs(
  questions: EvalQuestion[],
  paragraphs: Array<{ anchor: string; text: string }>,
  passages: Array<{ text: string; paragraphs: Array<{ anchor: string }> }>,
): Map<string, AskedFile['paragraphs'][string]['asked']> {
  const folded = paragraphs.map((p) => ({ anchor: p.anchor, text: foldForMatch(p.text) }));
  const foldedPassages = passages.map((p) => ({ anchor: p.paragraphs[0]!.anchor, text: foldForMatch(p.text) }));
  const asked = new Map<string, AskedFile['paragraphs'][string]['asked']>();
  for (const q of questions.filter(isAsked)) {
    const quote = foldForMatch(q.gold[0]!);
    const anchor = (folded.find((p) => p.text.includes(quote)) ?? foldedPassages.find((p) => p.text.includes(quote)))?.anchor;
    if (!anchor) throw new Error(`"${q.query}": its gold quote is in no passage of the book`);
    asked.set(anchor, [...(asked.get(anchor) ?? []), { question: q.query.trim(), quote: q.gold[0]! }]);
  }
  return asked;
}

/** A dev question's fold (0 or 1): a typo'd question's is its clean twin's, so neither is searched by models that hold the other. */
export function foldOf(question: Pick<EvalQuestion, 'query' | 'twin'>): number {
  return createHash('sha256').update(foldForMatch(question.twin ?? question.query)).digest()[0]! % 2;
}

/** What the evaluation asks of an engine. */
export type EvalEngine = Pick<RetrievalEngine, 'search' | 'entries' | 'corpus' | 'kind'>;

/**
 * An engine for the dev part: two engines, each fitted on the shipped book with the asked
 * questions of one fold left out, each dev question in `questions` searched by the one without
 * its fold's (a typo'd one, generated or not, by its twin's). Any other query (an unanswered
 * question) goes by the fold its text hashes to: a typo'd copy of a dev question must therefore
 * be among `questions`. Each fold's book is a copy of the corpus folder under the data folder, its
 * index cached there as the server's is.
 */
export async function foldedEngine(
  config: RetrievalSettings,
  questions: EvalQuestion[],
  progress: (label: string, total: number) => Progress,
  log: RetrievalLog = { info: () => undefined, warn: console.warn, error: console.error },
): Promise<EvalEngine> {
  const shipped = JSON.parse(await readFile(askedFile(config.corpusFile), 'utf8')) as AskedFile;
  const foldByQuery = new Map(questions.filter((q) => q.part === 'dev').map((q) => [foldForMatch(q.query), foldOf(q)]));
  const engines: RetrievalEngine[] = [];
  for (const fold of [0, 1]) {
    const dir = path.join(config.dataDir, 'eval-folds', `fold-${fold}`);
    await mkdir(dir, { recursive: true });
    await cp(path.dirname(config.corpusFile), dir, { recursive: true });
    const without: AskedFile = {
      about: shipped.about,
      paragraphs: Object.fromEntries(
        Object.entries(shipped.paragraphs).map(([anchor, entry]) => [anchor, { ...entry, asked: entry.asked.filter((a) => foldOf({ query: a.question }) !== fold) }]),
      ),
    };
    const corpusFile = path.join(dir, path.basename(config.corpusFile));
    await writeFile(askedFile(corpusFile), JSON.stringify(without));
    engines.push(await startRetrieval({ ...config, corpusFile, dataDir: path.join(dir, 'data') }, log, progress));
  }
  const engineFor = (query: string) => engines[foldByQuery.get(foldForMatch(query)) ?? foldOf({ query })]!;
  return {
    kind: engines[0]!.kind,
    corpus: engines[0]!.corpus,
    entries: engines[0]!.entries,
    search: (query, topK, models) => engineFor(query).search(query, topK, models),
  };
}
