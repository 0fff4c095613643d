// Writes corpus/glosses.json from gloss parts, each {"<paragraph address>": ["line", ...]}:
//   node --import tsx scripts/build-glosses.ts [--fresh] /tmp/glosses/part1.json /tmp/glosses/part2.json
// A paragraph is named by the reader's address (ch4#p12). The parts' lines are added to the
// glosses already shipped (those still written for their paragraph's text), or, with --fresh,
// make the whole file. Every address must be a paragraph of the book, no line may stand twice in a
// paragraph's gloss, and every passage of the book's default chunking must end up glossed.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shippedBookFile } from '../server/platform/config/book-file.ts';
import { bookParagraphs, GLOSSES_ABOUT, glossFile, loadCorpus, textHash, type GlossFile } from '../server/modules/book/index.ts';

const args = process.argv.slice(2);
const fresh = args[0] === '--fresh';
const parts = fresh ? args.slice(1) : args;
if (parts.length === 0) {
  console.error('usage: build-glosses.ts [--fresh] PART.json ...');
  process.exit(2);
}
const bookFile = shippedBookFile();
const out = glossFile(bookFile);
const texts = new Map((await bookParagraphs(bookFile)).map((p) => [p.anchor, p.text]));
const lines = new Map<string, string[]>();
if (!fresh) {
  const shipped = JSON.parse(await readFile(out, 'utf8')) as GlossFile;
  for (const [address, gloss] of Object.entries(shipped.paragraphs)) {
    if (texts.has(address) && gloss.text_sha256 === textHash(texts.get(address)!)) lines.set(address, gloss.lines);
  }
}
for (const part of parts) {
  for (const [address, glossLines] of Object.entries(JSON.parse(await readFile(part, 'utf8')) as Record<string, string[]>)) {
    if (!texts.has(address)) throw new Error(`${address} in ${part} is no paragraph of the book`);
    if (!Array.isArray(glossLines) || glossLines.some((line) => typeof line !== 'string' || line.trim() === ''))
      throw new Error(`${address} in ${part}: a gloss is a list of non-empty lines`);
    const have = lines.get(address) ?? [];
    for (const line of glossLines.map((l) => l.trim())) {
      if (have.includes(line)) throw new Error(`${address}: "${line}" stands twice`);
      have.push(line);
    }
    lines.set(address, have);
  }
}
const file: GlossFile = {
  about: GLOSSES_ABOUT,
  paragraphs: Object.fromEntries([...texts].filter(([address]) => lines.has(address)).map(([address, text]) => [address, { text_sha256: textHash(text), lines: lines.get(address)! }])),
};
await writeFile(out, `${JSON.stringify(file, null, 1)}\n`);
const unglossed = (await loadCorpus(bookFile)).passages.filter((p) => !p.gloss).map((p) => p.id);
if (unglossed.length > 0) throw new Error(`${path.relative(process.cwd(), out)} written, but these passages have no gloss: ${unglossed.join(', ')}`);
console.log(`${path.relative(process.cwd(), out)}: ${Object.keys(file.paragraphs).length} paragraphs glossed`);
