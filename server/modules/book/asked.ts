import path from 'node:path';
import { readJsonIfThere } from './data-file.ts';
import { paragraphLines } from './glosses.ts';

/**
 * Questions asked of the book (the evaluation's dev questions), shipped beside a book as
 * `asked.json`: each with the words of the book its writer pointed to as the answer (`quote`),
 * under the address of the paragraph that holds them and the sha256 of that paragraph's text (as
 * a gloss is). A question joins the gloss of the
 * one passage whose text holds its quote, so a reader's question finds the passage that answered
 * others like it; where the paragraph's text has changed, or no passage holds the quote whole, it
 * joins none. Built from the evaluation's dev part by scripts/build-asked.ts.
 */
export interface AskedFile {
  about: string;
  paragraphs: Record<string, { text_sha256: string; asked: Array<{ question: string; quote: string }> }>;
}

/** The questions asked of a book: `asked.json` in its folder. */
export function askedFile(bookFile: string): string {
  return path.join(path.dirname(bookFile), 'asked.json');
}

/** Whitespace, case and typographic quotes folded, so a quote matches however it was typed. */
export function foldForMatch(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[‘’]/g, "'").replace(/[“”]/g, '"').toLowerCase().trim();
}

/** The questions in `file`; none where there is no such file. A file that is there but malformed is an error. */
export async function loadAsked(file: string): Promise<AskedFile | undefined> {
  const parsed = (await readJsonIfThere(file)) as AskedFile | undefined;
  if (parsed === undefined) return undefined;
  const wellFormed =
    typeof parsed?.paragraphs === 'object' &&
    Object.entries(parsed.paragraphs).every(
      ([address, entry]) =>
        /^[a-z0-9-]+#p\d+$/.test(address) &&
        typeof entry?.text_sha256 === 'string' &&
        Array.isArray(entry.asked) &&
        entry.asked.every((a) => typeof a?.question === 'string' && a.question.trim() !== '' && typeof a.quote === 'string' && a.quote.trim() !== ''),
    );
  if (!wellFormed) throw new Error(`${file} is not a file of questions asked: {"about", "paragraphs": {"<part>#p<N>": {"text_sha256", "asked": [{"question", "quote"}]}}}`);
  return parsed;
}

/** Each passage's asked questions, one a line ('' where none): those of its paragraphs whose quote its own text holds. */
export function askedFor(
  passages: Array<{ text: string; paragraphs: Array<{ anchor: string }> }>,
  paragraphText: (anchor: string) => string | undefined,
  asked: AskedFile | undefined,
): string[] {
  return paragraphLines(passages, paragraphText, asked?.paragraphs, (entry, passage) => {
    const text = foldForMatch(passage.text);
    return entry.asked.filter((a) => text.includes(foldForMatch(a.quote))).map((a) => a.question.trim());
  });
}
