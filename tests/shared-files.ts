import path from 'node:path';

/**
 * The files the tests read from beside the repository, found as the server finds the book: from
 * `CORPUS_FILE`, else `../shared/corpus/` from where the tests run (the repository's root). The
 * tokenizer the tiny test models borrow stands in the same shared folder as the book
 * (`../models/bge-small-en-v1.5` from the corpus folder), or where `BGE_TOKENIZER_DIR` says.
 */
export const CORPUS_FILE = path.resolve(process.env.CORPUS_FILE || '../shared/corpus/alchemy-of-happiness.md');
export const BGE_TOKENIZER = path.resolve(
  process.env.BGE_TOKENIZER_DIR || path.join(path.dirname(CORPUS_FILE), '../models/bge-small-en-v1.5'),
);
