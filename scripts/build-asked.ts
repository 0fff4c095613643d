// Writes corpus/asked.json from the evaluation's dev part: each clean dev question with its first
// gold quote (the words its writer pointed to), under the paragraph that holds them, named by the
// paragraph's address and the sha256 of its text, as a gloss is:
//   node --import tsx scripts/build-asked.ts
// The test part is never read into it (tests/server/asked.test.ts holds that), so the fresh part
// stays questions the search has never seen.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shippedBookFile } from '../server/platform/config/book-file.ts';
import { askedFile, bookParagraphs, corpusFromMarkdown, textHash, type AskedFile } from '../server/modules/book/index.ts';
import { askedParagraphs, ASKED_ABOUT } from '../server/eval/asked.ts';
import { loadQuestions } from '../server/eval/evaluate.ts';

const bookFile = shippedBookFile();
const paragraphs = await bookParagraphs(bookFile);
// The book's passages alone (not loadCorpus, which reads the file this writes).
const { passages } = corpusFromMarkdown(await readFile(bookFile, 'utf8'));
const asked = askedParagraphs(await loadQuestions(), paragraphs, passages);
const texts = new Map(paragraphs.map((p) => [p.anchor, p.text]));
const file: AskedFile = {
  about: ASKED_ABOUT,
  paragraphs: Object.fromEntries(
    paragraphs.filter(({ anchor }) => asked.has(anchor)).map(({ anchor }) => [anchor, { text_sha256: textHash(texts.get(anchor)!), asked: asked.get(anchor)! }]),
  ),
};
const out = askedFile(bookFile);
await writeFile(out, `${JSON.stringify(file, null, 1)}\n`);
const count = [...asked.values()].reduce((sum, a) => sum + a.length, 0);
console.log(`${path.relative(process.cwd(), out)}: ${count} questions on ${asked.size} paragraphs`);
