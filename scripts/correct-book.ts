// npm run corpus:correct — writes corpus/alchemy-of-happiness.md: the scan in corpus/source/ with
// every row of corpus/corrections.tsv applied (scripts/book-corrections.ts). Run it after editing
// the list; tests/server/book-corrections.test.ts fails while the two disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { applyCorrections, parseCorrections } from './book-corrections.ts';

const root = path.join(import.meta.dirname, '..');
const source = readFileSync(path.join(root, 'corpus/source/alchemy-of-happiness.md'), 'utf8');
const corrections = parseCorrections(readFileSync(path.join(root, 'corpus/corrections.tsv'), 'utf8'));
writeFileSync(path.join(root, 'corpus/alchemy-of-happiness.md'), applyCorrections(source, corrections));
console.log(`corpus/alchemy-of-happiness.md: the scan with ${corrections.length} corrections`);
