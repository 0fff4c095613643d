/**
 * The book's Markdown → chapters (`##`), sections (`###`) and blocks (paragraphs, verse, lists).
 * `### Notes` blocks are footnotes: kept apart, keyed by their label, not searched.
 */
export type BlockKind = 'paragraph' | 'verse' | 'list';

export interface Block {
  /** The reader's address: `<part>#p<N>`, N counted from 1 across the part's sections (headings and Notes left out). */
  anchor: string;
  kind: BlockKind;
  /** As printed: Markdown emphasis and footnote markers removed; verse keeps its line breaks. */
  text: string;
  /** Labels of the footnotes this block points to. */
  notes: string[];
  /** Where each footnote mark stands: after the character before `at` in `text`. */
  marks: NoteMark[];
  /** Italic (or bold) spans of `text`, [start, end). */
  emphasis: Array<[number, number]>;
}

export interface NoteMark {
  label: string;
  at: number;
}

export interface Section {
  /** The `###` heading, or null for the chapter's opening text. */
  heading: string | null;
  blocks: Block[];
}

export interface Chapter {
  heading: string;
  slug: string;
  sections: Section[];
}

export interface ParsedBook {
  title: string;
  chapters: Chapter[];
  /** Footnote label (e.g. `ch1-1`) → its text. */
  footnotes: Map<string, string>;
}

const FOOTNOTE_REF = /\[\^([^\]]+)\]/g;
const FOOTNOTE_DEF = /^\[\^([^\]]+)\]:\s*(.*)$/s;

/** Removes Markdown emphasis and footnote markers, leaving the words as printed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(FOOTNOTE_REF, '')
    .replace(/\*\*(.+?)\*\*/gs, '$1')
    .replace(/(^|[^\w])_(.+?)_(?=[^\w]|$)/gs, '$1$2')
    .replace(/\\([[\]*_\\])/g, '$1')
    .replace(/[ \t]+$/gm, '');
}

const NOTE_OPEN = '\uE000';
const NOTE_CLOSE = '\uE001';
const EM_OPEN = '\uE002';
const EM_CLOSE = '\uE003';

/**
 * plainText with what it removes remembered: the footnote marks' places and the emphasised spans,
 * as offsets into the plain text (the same text plainText(markdown).trim() gives).
 */
export function plainWithMarks(markdown: string): { text: string; marks: NoteMark[]; emphasis: Array<[number, number]> } {
  const marked = markdown
    .replace(FOOTNOTE_REF, `${NOTE_OPEN}$1${NOTE_CLOSE}`)
    .replace(/\*\*(.+?)\*\*/gs, `${EM_OPEN}$1${EM_CLOSE}`)
    .replace(/(^|[^\w])_(.+?)_(?=[^\w]|$)/gs, `$1${EM_OPEN}$2${EM_CLOSE}`)
    .replace(/\\([[\]*_\\])/g, '$1')
    .replace(/[ \t]+((?:\uE000[^\uE001]*\uE001|[\uE002\uE003])*)$/gm, '$1');
  let text = '';
  const marks: NoteMark[] = [];
  const emphasis: Array<[number, number]> = [];
  let open = -1;
  for (let i = 0; i < marked.length; i++) {
    const c = marked[i]!;
    if (c === NOTE_OPEN) {
      const end = marked.indexOf(NOTE_CLOSE, i);
      marks.push({ label: marked.slice(i + 1, end), at: text.length });
      i = end;
    } else if (c === EM_OPEN) open = text.length;
    else if (c === EM_CLOSE) {
      if (open !== -1 && text.length > open) emphasis.push([open, text.length]);
      open = -1;
    } else text += c;
  }
  const lead = text.length - text.trimStart().length;
  const trimmed = text.trim();
  const clamp = (n: number) => Math.min(Math.max(n - lead, 0), trimmed.length);
  return {
    text: trimmed,
    marks: marks.map((m) => ({ label: m.label, at: clamp(m.at) })),
    emphasis: emphasis.map(([s, e]): [number, number] => [clamp(s), clamp(e)]).filter(([s, e]) => e > s),
  };
}

function classify(lines: string[]): BlockKind {
  if (lines.every((l) => /^(\d+\.|[-*])\s/.test(l))) return 'list';
  return lines.length > 1 ? 'verse' : 'paragraph';
}

/** A URL-safe, stable name for a chapter: `ch1` … `ch8`, `preface`, `introduction`, `editorial-note`. */
export function chapterSlug(heading: string): string {
  const roman = /^Chapter ([IVXL]+)\b/.exec(heading);
  if (roman) {
    const values: Record<string, number> = { I: 1, V: 5, X: 10, L: 50 };
    const digits = [...roman[1]!].map((c) => values[c]!);
    const n = digits.reduce((sum, v, i) => sum + (v < (digits[i + 1] ?? 0) ? -v : v), 0);
    return `ch${n}`;
  }
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function parseBook(markdown: string): ParsedBook {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let title = '';
  const chapters: Chapter[] = [];
  const footnotes = new Map<string, string>();
  let chapter: Chapter | undefined;
  let section: Section | undefined;
  let inNotes = false;
  let ordinal = 0;
  let buffer: string[] = [];

  const flush = () => {
    if (buffer.length === 0) return;
    const raw = buffer.join('\n');
    buffer = [];
    if (inNotes) {
      const def = FOOTNOTE_DEF.exec(raw);
      if (def) footnotes.set(def[1]!, plainText(def[2]!).trim());
      return;
    }
    if (!section) throw new Error(`Text before the first chapter: "${raw.slice(0, 40)}…"`);
    const notes = [...raw.matchAll(FOOTNOTE_REF)].map((m) => m[1]!);
    const rawLines = raw.split('\n');
    const kind = classify(rawLines);
    const { text, marks, emphasis } = plainWithMarks(raw);
    if (text) {
      ordinal += 1;
      section.blocks.push({ anchor: `${chapter!.slug}#p${ordinal}`, kind, text, notes, marks, emphasis });
    }
  };

  for (const line of lines) {
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const [, hashes, text] = heading;
      const name = plainText(text!).trim();
      if (hashes === '#') {
        title = name;
      } else if (hashes === '##') {
        chapter = { heading: name, slug: chapterSlug(name), sections: [] };
        section = { heading: null, blocks: [] };
        chapter.sections.push(section);
        chapters.push(chapter);
        inNotes = false;
        ordinal = 0;
      } else {
        inNotes = /^notes$/i.test(name);
        if (!inNotes) {
          if (!chapter) throw new Error(`Section "${name}" outside a chapter`);
          section = { heading: name, blocks: [] };
          chapter.sections.push(section);
        }
      }
    } else if (line.trim() === '') {
      flush();
    } else {
      buffer.push(line);
    }
  }
  flush();
  for (const c of chapters) c.sections = c.sections.filter((s) => s.blocks.length > 0);
  return { title, chapters, footnotes };
}
