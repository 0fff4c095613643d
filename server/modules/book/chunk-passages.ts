import type { PassageParagraph } from '../../../common/search/paragraph-map.ts';
import type { Block, ParsedBook } from './parse-book.ts';

export type { PassageParagraph };

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
  /** The paragraphs it holds, in order, whole or in part: its first one's `anchor` is the passage's. */
  paragraphs: PassageParagraph[];
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

/**
 * Where a paragraph may be cut between passages: after a sentence that closes every quotation it
 * opened. A quotation runs from “ to ” (or ‘ to ’, a ’ with none open being an apostrophe) over as
 * many sentences as it takes; one whose closing mark the printer left out runs to the paragraph's
 * end. Each cut is where a sentence ends and where the next begins, in order.
 */
export function cutPoints(text: string): Array<{ end: number; next: number }> {
  const spans = sentenceSpans(text);
  const cuts: Array<{ end: number; next: number }> = [];
  let double = 0;
  let single = 0;
  let at = 0;
  for (let s = 0; s < spans.length - 1; s++) {
    const end = spans[s]![1];
    for (; at < end; at++) {
      const c = text[at];
      if (c === '“') double += 1;
      else if (c === '”') double = Math.max(0, double - 1);
      else if (c === '‘') single += 1;
      else if (c === '’' && single > 0) single -= 1;
    }
    if (double === 0 && single === 0) cuts.push({ end, next: spans[s + 1]![0] });
  }
  return cuts;
}

/** A paragraph, or the part [from, to) of it that goes into one passage. */
interface Unit {
  block: Block;
  from: number;
  to: number;
  words: number;
  /** The footnotes marked in it. */
  notes: string[];
}

/**
 * A paragraph over maxWords becomes runs of whole sentences, never cut inside a quotation (verse
 * and lists stay whole): the runs nearest the sizes wanted, each as near as it can be to
 * [minWords, maxWords] and then to an equal share.
 */
function splitLongBlock(block: Block, sizes: ChunkSizes): Unit[] {
  const { text } = block;
  const words = countWords(text);
  if (words <= sizes.maxWords || block.kind !== 'paragraph') return [{ block, from: 0, to: text.length, words, notes: block.notes }];
  const target = words / Math.ceil(words / sizes.maxWords);
  const cost = (w: number) => Math.max(0, sizes.minWords - w) ** 2 + Math.max(0, w - sizes.maxWords) ** 2 + 0.01 * (w - target) ** 2;
  // Run i is [starts[i], ends[j]) for some j ≥ i; the last end is the paragraph's.
  const cuts = cutPoints(text);
  const starts = [0, ...cuts.map((c) => c.next)];
  const ends = [...cuts.map((c) => c.end), text.length];
  const wordsBefore = starts.map((start) => countWords(text.slice(0, start)));
  const total = (i: number, j: number) => (j + 1 < starts.length ? wordsBefore[j + 1]! : words) - wordsBefore[i]!;
  // best[i]: the least cost of cutting from starts[i] to the paragraph's end, and where its first run ends.
  const best: Array<{ cost: number; end: number }> = [];
  for (let i = starts.length - 1; i >= 0; i--) {
    best[i] = { cost: Infinity, end: ends.length - 1 };
    for (let j = i; j < ends.length; j++) {
      const c = cost(total(i, j)) + (j + 1 < starts.length ? best[j + 1]!.cost : 0);
      if (c < best[i]!.cost) best[i] = { cost: c, end: j };
    }
  }
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < starts.length; i = best[i]!.end + 1) runs.push([starts[i]!, ends[best[i]!.end]!]);
  return partsOf(block, runs);
}

/** A paragraph's parts [from, to), each with its words and the footnotes marked in it (a mark after a part's last sentence goes with it). */
function partsOf(block: Block, runs: Array<[number, number]>): Unit[] {
  const owner = (at: number) => Math.max(0, runs.findLastIndex(([from]) => from <= at));
  return runs.map(([from, to], i) => ({
    block,
    from,
    to,
    words: countWords(block.text.slice(from, to)),
    notes: block.marks.filter((m) => owner(m.at) === i).map((m) => m.label),
  }));
}

/**
 * A paragraph cut in two so that its head brings a group of `short` words up to minWords, its
 * tail keeping minWords too; undefined where no cut does both (or it is verse or a list).
 */
function topUp(unit: Unit, short: number, sizes: ChunkSizes): [Unit, Unit] | undefined {
  if (unit.block.kind !== 'paragraph') return undefined;
  const { text } = unit.block;
  for (const cut of cutPoints(text)) {
    if (cut.end <= unit.from || cut.next >= unit.to) continue;
    const head = countWords(text.slice(unit.from, cut.end));
    if (short + head < sizes.minWords) continue;
    if (countWords(text.slice(cut.next, unit.to)) < sizes.minWords) return undefined;
    // Notes are owned within this paragraph: re-derive them for the two halves of the unit's span.
    const [a, b] = partsOf(unit.block, [
      [unit.from, cut.end],
      [cut.next, unit.to],
    ]);
    return [{ ...a!, notes: unit.notes.filter((l) => a!.notes.includes(l)) }, { ...b!, notes: unit.notes.filter((l) => !a!.notes.includes(l)) }];
  }
  return undefined;
}

/** A group's text (its paragraphs' parts, a blank line between two) and where each part stands in it. */
function join(units: Unit[]): { text: string; paragraphs: PassageParagraph[] } {
  // Two parts of one paragraph side by side are one part (with what stood between them).
  const merged: Unit[] = [];
  for (const u of units) {
    const last = merged[merged.length - 1];
    if (last && last.block === u.block && last.to <= u.from) merged[merged.length - 1] = { ...last, to: u.to, words: last.words + u.words, notes: [...last.notes, ...u.notes] };
    else merged.push(u);
  }
  let text = '';
  const paragraphs: PassageParagraph[] = [];
  for (const u of merged) {
    if (text) text += '\n\n';
    paragraphs.push({ anchor: u.block.anchor, at: text.length, from: u.from, to: u.to });
    text += u.block.text.slice(u.from, u.to);
  }
  return { text, paragraphs };
}

/**
 * Packs a book's blocks into passages a reader would want as a search result: whole
 * paragraphs where they fit, verse kept with its paragraph, never across a section.
 */
export function chunkPassages(book: ParsedBook, sizes: ChunkSizes = DEFAULT_SIZES): Passage[] {
  const passages: Passage[] = [];
  const hardMax = Math.round(sizes.maxWords * 1.25);
  const wordsOf = (units: Unit[]) => units.reduce((n, u) => n + u.words, 0);
  // A group too short to stand alone joins the one before it where the two fit.
  const close = (groups: Unit[][], group: Unit[]) => {
    const previous = groups[groups.length - 1];
    if (previous && wordsOf(group) < sizes.minWords && wordsOf(previous) + wordsOf(group) <= hardMax) previous.push(...group);
    else groups.push(group);
  };
  for (const chapter of book.chapters) {
    let ordinal = 0;
    for (const section of chapter.sections) {
      const groups: Unit[][] = [];
      let group: Unit[] = [];
      let groupWords = 0;
      const queue = section.blocks.flatMap((b) => splitLongBlock(b, sizes));
      for (let u = 0; u < queue.length; u++) {
        let unit = queue[u]!;
        // A short group that cannot take in the next paragraph whole takes in its first sentences.
        if (group.length > 0 && groupWords < sizes.minWords && groupWords + unit.words > hardMax) {
          const halves = topUp(unit, groupWords, sizes);
          if (halves) {
            queue.splice(u + 1, 0, halves[1]);
            unit = halves[0];
            group.push(unit);
            groupWords += unit.words;
            continue;
          }
        }
        const fits = groupWords + unit.words <= sizes.maxWords;
        const tooShort = groupWords < sizes.minWords && groupWords + unit.words <= hardMax;
        if (group.length > 0 && !fits && !tooShort) {
          close(groups, group);
          group = [];
          groupWords = 0;
        }
        group.push(unit);
        groupWords += unit.words;
      }
      if (group.length > 0) close(groups, group);
      for (const units of groups) {
        const { text, paragraphs } = join(units);
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
          paragraphs,
          notes: labels.map((label) => ({ label, text: book.footnotes.get(label) ?? '' })),
        });
      }
    }
  }
  return passages;
}
