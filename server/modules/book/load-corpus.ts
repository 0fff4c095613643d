import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { chunkPassages, DEFAULT_SIZES, type ChunkSizes, type Passage } from './chunk-passages.ts';
import { parseBook, type ParsedBook } from './parse-book.ts';
import { askedFile, askedFor, loadAsked } from './asked.ts';
import { glossesFor, glossFile, loadGlosses } from './glosses.ts';
import { loadEarlierSets, passageSetName, type PassageSet } from './passage-sets.ts';

export interface Corpus {
  title: string;
  chapters: string[];
  passages: Passage[];
  /** Changes whenever any passage's id or text does (its gloss: see build-index.ts). */
  hash: string;
  /** The name votes give these passages (`passage_set`): passageSetName(hash). */
  passageSet: string;
  /** Earlier cuts of the book into passages (passage-sets.ts), newest first: none where none is shipped. */
  earlier: PassageSet[];
}

export function corpusFromMarkdown(markdown: string, sizes: ChunkSizes = DEFAULT_SIZES): Corpus {
  return corpusOf(parseBook(markdown), sizes);
}

function corpusOf(book: ParsedBook, sizes: ChunkSizes): Corpus {
  const passages = chunkPassages(book, sizes);
  const hash = createHash('sha256')
    .update(JSON.stringify(passages.map((p) => [p.id, p.text])))
    .digest('hex');
  return { title: book.title, chapters: book.chapters.map((c) => c.heading), passages, hash, passageSet: passageSetName(hash), earlier: [] };
}

/** The book cannot be had: the file cannot be read, or is not the book's Markdown. One sentence says which. */
export class CorpusError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'CorpusError';
  }
}

/**
 * The book in `file`, its passages with their paragraphs' glosses from `glosses.json` beside it
 * and the questions asked of them from `asked.json` (where there are such files: each
 * attaches only to the paragraph text it was written for).
 */
export async function loadCorpus(file: string, sizes?: ChunkSizes): Promise<Corpus> {
  let markdown: string;
  try {
    markdown = await readFile(file, 'utf8');
  } catch (error) {
    throw new CorpusError(`Cannot read the book at ${file} (set CORPUS_FILE): ${(error as Error).message}`, error);
  }
  let corpus: Corpus;
  let book: ParsedBook;
  try {
    book = parseBook(markdown);
    corpus = corpusOf(book, sizes ?? DEFAULT_SIZES);
  } catch (error) {
    throw new CorpusError(`${file} is not the book's Markdown (set CORPUS_FILE): ${(error as Error).message}`, error);
  }
  const texts = new Map(book.chapters.flatMap((c) => c.sections.flatMap((s) => s.blocks.map((b) => [b.anchor, b.text] as const))));
  const textOf = (anchor: string) => texts.get(anchor);
  // Each file beside the book, read into its lines per passage; one that cannot be read ends the start in a sentence.
  const linesFrom = async (dataFile: string, what: string, read: (file: string) => Promise<string[]>) => {
    try {
      return await read(dataFile);
    } catch (error) {
      throw new CorpusError(`Cannot read the ${what} at ${dataFile}: ${(error as Error).message}`, error);
    }
  };
  const glosses = await linesFrom(glossFile(file), "passages' glosses", async (f) => glossesFor(corpus.passages, textOf, await loadGlosses(f)));
  const asked = await linesFrom(askedFile(file), 'questions asked of the passages', async (f) => askedFor(corpus.passages, textOf, await loadAsked(f)));
  // The questions asked count as lines of the passage's gloss (build-index.ts), after its own.
  corpus.passages.forEach((p, i) => {
    const lines = [...new Set([glosses[i], asked[i]].join('\n').split('\n'))].filter((line) => line !== '');
    if (lines.length > 0) p.gloss = lines.join('\n');
  });
  try {
    corpus.earlier = await loadEarlierSets(file);
  } catch (error) {
    throw new CorpusError(`Cannot read the earlier passages beside ${file}: ${(error as Error).message}`, error);
  }
  return corpus;
}
