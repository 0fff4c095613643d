import type { Block, ParsedBook } from './parse-book.ts';

/** Passage sizes in words; chosen by measurement (`npm run eval -- --sizes`, see README). */
export interface ChunkSizes {
  /** A passage shorter than this takes in its neighbour. */
  minWords: number;
  /** Blocks are packed up to this; a longer paragraph is split at sentence ends. */
  maxWords: number;
}

export const DEFAULT_SIZES: ChunkSizes = { minWords: 80, maxWords: 200 };

export interface Passage {
  /** Stable and readable: chapter slug and ordinal within the chapter, e.g. `ch4-7`. */
  id: string;
  /** Place in the book, from 0. */
  index: number;
  chapter: string;
  chapterSlug: string;
  section: string | null;
  text: string;
  words: number;
  /** Footnotes the passage's text points to. */
  notes: Array<{ label: string; text: string }>;
  /**
   * What the passage answers, in a modern reader's words, a line each (glosses.ts): indexed beside
   * its text by the models that weigh it, never shown. Absent where it has none.
   */
  gloss?: string;
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Sentences, each keeping its closing punctuation and quotation marks. */
export function splitSentences(text: string): string[] {
  // Not after an initial ("A. D.") or a short abbreviation ("ob.", "chap.", "Dr.").
  const parts = text.split(/(?<![\s(][A-Z]\.|\b(?:ob|chap|viz|vide|cf|Dr|Mr|St|Prof)\.)(?<=[.!?]["”’)]*)\s+(?=["“‘(]?[A-Z0-9])/);
  return parts.map((s) => s.trim()).filter(Boolean);
}

/**
 * Where each sentence of a passage stands: [start, end) character offsets into its text, in
 * order. Paragraphs and verse lines break sentences too; the gaps between them (spaces, blank
 * lines) belong to no sentence.
 */
export function sentenceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let from = 0;
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (const sentence of splitSentences(paragraph)) {
      const start = text.indexOf(sentence, from);
      if (start === -1) continue;
      spans.push([start, start + sentence.length]);
      from = start + sentence.length;
    }
  }
  return spans;
}

interface Unit {
  text: string;
  words: number;
  notes: string[];
  /** Joined to the previous unit with a space (a split paragraph) rather than a blank line. */
  continues: boolean;
}

/** A paragraph over maxWords becomes near-equal runs of whole sentences. */
function splitLongBlock(block: Block, maxWords: number): Unit[] {
  const words = countWords(block.text);
  if (words <= maxWords || block.kind !== 'paragraph') {
    return [{ text: block.text, words, notes: block.notes, continues: false }];
  }
  const sentences = splitSentences(block.text);
  const pieces = Math.ceil(words / maxWords);
  const target = words / pieces;
  const units: Unit[] = [];
  let current: string[] = [];
  let currentWords = 0;
  for (const sentence of sentences) {
    const w = countWords(sentence);
    // Close the run when this sentence takes it further from the target than stopping short does.
    if (current.length > 0 && currentWords + w - target > target - currentWords && units.length < pieces - 1) {
      units.push({ text: current.join(' '), words: currentWords, notes: [], continues: units.length > 0 });
      current = [];
      currentWords = 0;
    }
    current.push(sentence);
    currentWords += w;
  }
  units.push({ text: current.join(' '), words: currentWords, notes: [], continues: units.length > 0 });
  // Footnote markers are stripped from the text, so a split paragraph's notes go with its first piece.
  units[0]!.notes = block.notes;
  return units;
}

function join(units: Unit[]): string {
  return units.map((u, i) => (i === 0 ? u.text : (u.continues ? ' ' : '\n\n') + u.text)).join('');
}

/**
 * Packs a book's blocks into passages a reader would want as a search result: whole
 * paragraphs where they fit, verse kept with its paragraph, never across a section.
 */
export function chunkPassages(book: ParsedBook, sizes: ChunkSizes = DEFAULT_SIZES): Passage[] {
  const passages: Passage[] = [];
  const hardMax = Math.round(sizes.maxWords * 1.25);
  for (const chapter of book.chapters) {
    let ordinal = 0;
    for (const section of chapter.sections) {
      const groups: Unit[][] = [];
      let group: Unit[] = [];
      let groupWords = 0;
      for (const unit of section.blocks.flatMap((b) => splitLongBlock(b, sizes.maxWords))) {
        const fits = groupWords + unit.words <= sizes.maxWords;
        const tooShort = groupWords < sizes.minWords && groupWords + unit.words <= hardMax;
        if (group.length > 0 && !fits && !tooShort) {
          groups.push(group);
          group = [];
          groupWords = 0;
        }
        group.push(unit);
        groupWords += unit.words;
      }
      if (group.length > 0) {
        const previous = groups[groups.length - 1];
        const previousWords = previous?.reduce((n, u) => n + u.words, 0) ?? 0;
        if (previous && groupWords < sizes.minWords && previousWords + groupWords <= hardMax) previous.push(...group);
        else groups.push(group);
      }
      for (const units of groups) {
        const text = join(units);
        const labels = [...new Set(units.flatMap((u) => u.notes))];
        ordinal += 1;
        passages.push({
          id: `${chapter.slug}-${ordinal}`,
          index: passages.length,
          chapter: chapter.heading,
          chapterSlug: chapter.slug,
          section: section.heading,
          text,
          words: countWords(text),
          notes: labels.map((label) => ({ label, text: book.footnotes.get(label) ?? '' })),
        });
      }
    }
  }
  return passages;
}
