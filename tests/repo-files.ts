import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The files the tests read, shipped in the repository: the book (`corpus/`, or `CORPUS_FILE`) and
 * the bge-small tokenizer the tiny test models borrow (`tests/fixtures/`, or `BGE_TOKENIZER_DIR`).
 */
export const CORPUS_FILE = path.resolve(process.env.CORPUS_FILE || path.join(root, 'corpus/alchemy-of-happiness.md'));
export const BGE_TOKENIZER = path.resolve(
  process.env.BGE_TOKENIZER_DIR || path.join(root, 'tests/fixtures/bge-small-en-v1.5'),
);
