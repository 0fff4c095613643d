// Builds corpus/glosses.json from the gloss parts, each {"<passage id>": ["line", ...]}:
//   node --import tsx scripts/build-glosses.ts /tmp/glosses/part1.json /tmp/glosses/part2.json /tmp/glosses/part3.json
// Every passage id must be one of the book's default chunking, and every passage of it glossed.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { shippedBookFile } from '../server/platform/config/book-file.ts';
import { loadCorpus } from '../server/modules/book/index.ts';
import { GLOSSES_ABOUT, glossFile, passageTextHash, type GlossFile } from '../server/modules/book/index.ts';

const parts = process.argv.slice(2);
if (parts.length === 0) {
  console.error('usage: build-glosses.ts PART.json ...');
  process.exit(2);
}
const lines = new Map<string, string[]>();
for (const part of parts) {
  for (const [id, glossLines] of Object.entries(JSON.parse(await readFile(part, 'utf8')) as Record<string, string[]>)) {
    if (lines.has(id)) throw new Error(`${id} is glossed twice (again in ${part})`);
    if (!Array.isArray(glossLines) || glossLines.some((line) => typeof line !== 'string' || line.trim() === ''))
      throw new Error(`${id} in ${part}: a gloss is a list of non-empty lines`);
    lines.set(id, glossLines.map((line) => line.trim()));
  }
}
const bookFile = shippedBookFile();
const corpus = await loadCorpus(bookFile);
const unknown = [...lines.keys()].filter((id) => !corpus.passages.some((p) => p.id === id));
const missing = corpus.passages.filter((p) => !lines.has(p.id)).map((p) => p.id);
if (unknown.length > 0 || missing.length > 0) throw new Error(`ids not in the book: ${unknown.join(', ') || 'none'}; passages without a gloss: ${missing.join(', ') || 'none'}`);
const file: GlossFile = {
  about: GLOSSES_ABOUT,
  passages: Object.fromEntries(corpus.passages.map((p) => [p.id, { text_sha256: passageTextHash(p.text), lines: lines.get(p.id)! }])),
};
const out = glossFile(bookFile);
await writeFile(out, `${JSON.stringify(file, null, 1)}\n`);
console.log(`${path.relative(process.cwd(), out)}: ${corpus.passages.length} passages glossed`);
