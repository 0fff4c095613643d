import { readJsonIfThere } from './data-file.ts';
import path from 'node:path';

/**
 * Earlier sets of passages: how the book was cut into passages before the cut the server serves,
 * shipped as data (`passages-v1.json` beside the book: each passage's id and exact text), so that
 * a vote cast on one of them still names its text, and is never taken for a passage of today's cut
 * that happens to carry the same id.
 */
export interface PassageSet {
  /** The name votes store (`passage_set`): 'v1', or a corpus's passage version. */
  name: string;
  /** A passage's text (as shown) → its id in this set. */
  idsByText: Map<string, string>;
  /** A passage's id in this set → its text. */
  textsById: Map<string, string>;
}

/** The files of earlier sets, by the name votes give each. */
export const EARLIER_SETS: ReadonlyArray<{ name: string; file: string }> = [{ name: 'v1', file: 'passages-v1.json' }];

/** The set of passages a corpus makes: a vote names it by the first 16 hex digits of the corpus hash. */
export function passageSetName(corpusHash: string): string {
  return corpusHash.slice(0, 16);
}

export function passageSet(name: string, passages: Iterable<{ id: string; text: string }>): PassageSet {
  const list = [...passages];
  return { name, idsByText: new Map(list.map((p) => [p.text.trim(), p.id])), textsById: new Map(list.map((p) => [p.id, p.text])) };
}

/** The earlier sets shipped beside the book in `bookFile` (those whose file is there). */
export async function loadEarlierSets(bookFile: string): Promise<PassageSet[]> {
  const sets: PassageSet[] = [];
  for (const { name, file } of EARLIER_SETS) {
    const parsed = (await readJsonIfThere(path.join(path.dirname(bookFile), file))) as { passages?: Record<string, { text?: unknown }> } | undefined;
    if (parsed === undefined) continue;
    const entries = Object.entries(parsed.passages ?? {});
    if (entries.length === 0 || entries.some(([, p]) => typeof p?.text !== 'string')) throw new Error(`${file} is not a set of passages: {"passages": {"<id>": {"text"}}}`);
    sets.push(passageSet(name, entries.map(([id, p]) => ({ id, text: p.text as string }))));
  }
  return sets;
}
